import { AppError } from '../errors';

/** The callback could not be tied to a login this session started (RFC 6749 §10.12). */
export class StateMismatchError extends AppError {
  constructor(readonly reason: 'missing' | 'unknown' | 'expired') {
    super(
      'state_mismatch',
      reason === 'expired'
        ? 'This login request could not be verified: it took longer than 10 minutes. Please connect again.'
        : 'This login request could not be verified. Please connect again from this browser.',
    );
  }
}

/** The provider redirected back with an error other than the person cancelling. */
export class AuthorizationError extends AppError {
  constructor(message: string) {
    super('authorization_error', message);
  }
}

/** Too many login starts from one address (see ./rateLimit). */
export class LoginRateLimitError extends AppError {
  declare readonly retryAfterSec: number;
  constructor(retryAfterSec: number) {
    super('login_rate_limit', 'Too many logins were started from your network just now.');
    this.retryAfterSec = retryAfterSec;
  }
}
