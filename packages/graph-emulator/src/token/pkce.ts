/**
 * PKCE (RFC 7636): the verifier presented at the token endpoint must match
 * the challenge sent to the dialog. A verifier for a code issued without a
 * challenge is refused in either profile; the `facebook` profile answers
 * with the error client libraries report from the real provider, whose
 * dialog drops the challenge outside its OIDC flow.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { GraphError } from '../errors';
import type { CodeRecord } from '../store/codes';
import type { EmulatorProfile } from '../types';

/** RFC 7636 §4.1: 43–128 unreserved characters. */
const VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/;

/** What the real token endpoint is reported to answer to a verifier whose code had no challenge. */
export const VERIFIER_WITHOUT_CHALLENGE =
  'code_verifier param is provided without a code_challenge in authorization request';

export function checkVerifier(code: CodeRecord, verifier: string | undefined, profile: EmulatorProfile): void {
  const { challenge } = code;
  if (challenge === undefined) {
    // RFC 9700 §4.8.2 (PKCE downgrade): a verifier without a challenge at the
    // authorization request must be refused.
    if (verifier !== undefined) {
      if (profile === 'facebook')
        // Written like the captured wrong-secret refusal: code 1 at 400 without is_transient (docs/specification.md#pkce).
        throw new GraphError({ code: 1, status: 400, transient: false, message: VERIFIER_WITHOUT_CHALLENGE });
      throw new GraphError({
        code: 100,
        message: 'code_verifier was sent but the authorization request had no code_challenge.',
      });
    }
    return;
  }
  if (verifier === undefined || verifier === '') {
    throw new GraphError({ code: 100, message: 'Missing code_verifier parameter.' });
  }
  const computed =
    challenge.method === 'S256' ? createHash('sha256').update(verifier, 'ascii').digest('base64url') : verifier;
  const a = Buffer.from(computed);
  const b = Buffer.from(challenge.value);
  if (!VERIFIER_RE.test(verifier) || a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new GraphError({ code: 100, message: 'Invalid code_verifier.' });
  }
}
