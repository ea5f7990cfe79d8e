import { createHash, randomBytes } from 'node:crypto';

/** 256 bits from the CSPRNG, base64url: the `state` and the PKCE verifier (RFC 7636 §4.1: 43–128 chars). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** RFC 7636 §4.2, S256: BASE64URL(SHA256(ASCII(code_verifier))). */
export function codeChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
