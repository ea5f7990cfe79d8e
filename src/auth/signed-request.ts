import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { parseJson } from '../json';

/**
 * The provider's `signed_request` (docs/provider-interface.md#signed-request):
 * `<base64url HMAC-SHA256 signature>.<base64url JSON payload>`, the HMAC of
 * the payload's text keyed by the app secret. Checked before anything reads
 * the payload's content: shape, then signature (constant time), then the
 * algorithm it names, then its age.
 */

/** Longest `signed_request` accepted: the provider's are about 200 characters. */
export const MAX_SIGNED_REQUEST = 2048;
/** A request issued longer ago than this is refused as a replay. */
export const MAX_AGE_SEC = 60 * 60;
/** Clock skew tolerated between the provider and us. */
export const MAX_SKEW_SEC = 5 * 60;

const payloadSchema = z.object({
  algorithm: z.literal('HMAC-SHA256'),
  issued_at: z.number().int().nonnegative(),
  // An app-scoped id: digits. Some senders write it as a number.
  user_id: z.union([z.string().regex(/^\d{1,32}$/), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)]),
});

export interface SignedRequest {
  userId: string;
  issuedAt: number;
}

export type SignedRequestResult = { ok: true; request: SignedRequest } | { ok: false; reason: string };

// base64url, with the padding some senders add.
const PART = /^[A-Za-z0-9_-]+={0,2}$/;

export function verifySignedRequest(raw: unknown, appSecret: string, nowMs: number): SignedRequestResult {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'missing' };
  if (raw.length > MAX_SIGNED_REQUEST) return { ok: false, reason: 'too_long' };
  const parts = raw.split('.');
  if (parts.length !== 2 || !PART.test(parts[0]!) || !PART.test(parts[1]!)) return { ok: false, reason: 'malformed' };
  const [signature, payload] = parts as [string, string];
  const given = Buffer.from(signature, 'base64url');
  // The MAC is over the payload exactly as sent (padding included, when the sender padded it).
  const expected = createHmac('sha256', appSecret).update(payload).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
  const json = parseJson(Buffer.from(payload, 'base64url').toString('utf8'));
  if (json === undefined) return { ok: false, reason: 'malformed' };
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success) {
    const algorithm = typeof json === 'object' && json !== null && 'algorithm' in json ? json.algorithm : undefined;
    return { ok: false, reason: algorithm !== 'HMAC-SHA256' ? 'algorithm' : 'malformed' };
  }
  const nowSec = Math.floor(nowMs / 1000);
  if (parsed.data.issued_at > nowSec + MAX_SKEW_SEC) return { ok: false, reason: 'future' };
  if (parsed.data.issued_at < nowSec - MAX_AGE_SEC) return { ok: false, reason: 'expired' };
  return { ok: true, request: { userId: String(parsed.data.user_id), issuedAt: parsed.data.issued_at } };
}
