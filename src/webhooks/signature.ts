import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The provider signs each delivery: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body, keyed by the
 * app secret>` (docs/provider-interface.md#webhook-deliveries). Checked on the bytes as received, before
 * anything parses them, and compared in constant time.
 */
export function validSignature(header: unknown, body: Buffer, appSecret: string): boolean {
  if (typeof header !== 'string' || appSecret === '') return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const given = Buffer.from(match[1]!.toLowerCase(), 'hex');
  const expected = createHmac('sha256', appSecret).update(body).digest();
  return timingSafeEqual(given, expected);
}

/** Two strings compared in constant time whatever their lengths (both are hashed first). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
