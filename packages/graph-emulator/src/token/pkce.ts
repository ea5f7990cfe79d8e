/**
 * PKCE (RFC 7636): the verifier presented at the token endpoint must match
 * the challenge sent to the dialog.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { GraphError } from '../errors';
import type { CodeRecord } from '../store/codes';

/** RFC 7636 §4.1: 43–128 unreserved characters. */
const VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/;

export function checkVerifier(code: CodeRecord, verifier: string | undefined): void {
  const { challenge } = code;
  if (challenge === undefined) {
    // RFC 9700 §4.8.2 (PKCE downgrade): a verifier without a challenge at the
    // authorization request must be refused.
    if (verifier !== undefined) {
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
