/**
 * The 190 errors the Graph API gives for unusable tokens
 * (https://developers.facebook.com/docs/facebook-login/guides/access-tokens/debugging-and-error-handling):
 * subcode 463 expired, 460 password changed / session invalidated,
 * 458 app removed, 467 logged out.
 */
import { GraphError } from '../errors';
import type { TokenRecord } from './tokens';

export function expiredError(expiresAt: number, now: number): GraphError {
  return new GraphError({
    code: 190,
    subcode: 463,
    message: `Error validating access token: Session has expired on ${fbDate(expiresAt)}. The current time is ${fbDate(now)}.`,
  });
}

export function unknownTokenError(): GraphError {
  return new GraphError({ code: 190, message: 'Invalid OAuth access token - Cannot parse access token' });
}

export function revokedError(record: TokenRecord): GraphError {
  switch (record.revoked) {
    case 'app_removed':
      return new GraphError({
        code: 190,
        subcode: 458,
        message: `Error validating access token: The user has not authorized application ${record.clientId}.`,
      });
    case 'logged_out':
      return new GraphError({
        code: 190,
        subcode: 467,
        message: 'Error validating access token: The session is invalid because the user logged out.',
      });
    default:
      return new GraphError({
        code: 190,
        subcode: 460,
        message:
          'Error validating access token: The session has been invalidated because the user changed their password ' +
          'or Facebook has changed the session for security reasons.',
      });
  }
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The provider's date style in 463 messages ("Thursday, 01-Oct-26 12:00:00 PDT"), in UTC. */
export function fbDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return (
    `${DAYS[d.getUTCDay()] ?? ''}, ${p(d.getUTCDate())}-${MONTHS[d.getUTCMonth()] ?? ''}-${p(d.getUTCFullYear() % 100)} ` +
    `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} UTC`
  );
}
