/**
 * Random identifiers and trace ids, used by the stores, the errors, the
 * controls, the webhooks and the OIDC signer alike.
 */
import { randomBytes } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random [A-Za-z0-9] text from a CSPRNG (slight modulo bias is irrelevant here). */
export function randomAlnum(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += BASE62[b % BASE62.length];
  return out;
}

/** ≥128-bit identifiers for codes and dialog requests (RFC 6749 §10.10). */
export function randomId(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
