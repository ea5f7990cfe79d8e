import { AppError } from '../errors';
import type { Say } from '../i18n/locale';

/** The callback could not be tied to a login this session started (RFC 6749 §10.12). */
export class StateMismatchError extends AppError {
  constructor(readonly reason: 'missing' | 'unknown' | 'expired' | 'removed') {
    super('state_mismatch', { key: 'error.state', values: { reason } });
  }
}

/** The provider redirected back with an error other than the person cancelling. */
export class AuthorizationError extends AppError {
  constructor(message: Say) {
    super('authorization_error', message);
  }
}

/** Too many login starts from one address (see ./rate-limit). */
export class LoginRateLimitError extends AppError {
  declare readonly retryAfterSec: number;
  constructor(retryAfterSec: number) {
    super('login_rate_limit', 'Too many logins were started from your network just now.');
    this.retryAfterSec = retryAfterSec;
  }
}

/**
 * The code exchange of an OIDC login brought no id_token, or one that does
 * not verify (docs/provider-interface.md#pkce). Nothing of the login is kept.
 */
export class IdTokenError extends AppError {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('id_token_invalid', `The provider's identity token could not be verified (${reason}).`, options);
  }
}

/**
 * The token endpoint refused the PKCE verifier because the dialog dropped the
 * challenge: the provider honours PKCE only in its OIDC flow
 * (docs/provider-interface.md#pkce). A setup problem, not the person's.
 */
export class PkceRefusedError extends AppError {
  constructor(options?: { cause?: unknown }) {
    super(
      'pkce_refused',
      'The provider refused the PKCE code_verifier: its dialog dropped the code_challenge.',
      options,
    );
  }
}
