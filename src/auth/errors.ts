import { AppError } from '../errors';

/** The callback could not be tied to a login this session started (RFC 6749 §10.12). */
export class StateMismatchError extends AppError {
  readonly status = 403;
  readonly code = 'state_mismatch';
  constructor(readonly reason: 'missing' | 'unknown' | 'expired') {
    super(
      reason === 'expired'
        ? 'This login request could not be verified: it took longer than 10 minutes. Please connect again.'
        : 'This login request could not be verified. Please connect again from this browser.',
    );
  }
}

/** The provider redirected back with an error other than the person cancelling. */
export class AuthorizationError extends AppError {
  readonly status = 400;
  readonly code = 'authorization_error';
}
