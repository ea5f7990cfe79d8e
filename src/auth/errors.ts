import { AppError } from '../errors';

/** The callback could not be tied to a login this session started (RFC 6749 §10.12). */
export class StateMismatchError extends AppError {
  constructor(readonly reason: 'missing' | 'unknown' | 'expired' | 'removed') {
    super('state_mismatch', STATE_MESSAGES[reason]);
  }
}

const NOT_VERIFIED = 'This login request could not be verified. Please connect again from this browser.';
const STATE_MESSAGES: Record<StateMismatchError['reason'], string> = {
  missing: NOT_VERIFIED,
  unknown: NOT_VERIFIED,
  expired: 'This login request could not be verified: it took longer than 10 minutes. Please connect again.',
  // docs/architecture.md#provider-callbacks: a login begun before the person removed the app does not complete.
  removed:
    'This login began before you removed Pagelight from your Facebook settings, so it was not completed. Please connect again.',
};

/** The provider redirected back with an error other than the person cancelling. */
export class AuthorizationError extends AppError {
  constructor(message: string) {
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
