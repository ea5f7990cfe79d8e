/**
 * The settings form's CSRF token. The emulator has no sessions, so the token
 * is stateless: an HMAC, under a key made at start, of the person, the app
 * and the time the page was shown. Another site can neither read it (the page
 * answers no CORS request) nor forge it, and it is good for 30 minutes, like
 * a pending login dialog.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const FORM_TOKEN_TTL_MS = 30 * 60_000;

function mac(key: Buffer, userId: string, clientId: string, issuedAt: number): Buffer {
  return createHmac('sha256', key).update(`${userId}\n${clientId}\n${issuedAt}`).digest();
}

export function formToken(key: Buffer, userId: string, clientId: string, now: number): string {
  return `${now.toString(36)}.${mac(key, userId, clientId, now).toString('base64url')}`;
}

export function formTokenValid(key: Buffer, token: string, userId: string, clientId: string, now: number): boolean {
  const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (match === null) return false;
  const issuedAt = parseInt(match[1]!, 36);
  if (!(issuedAt <= now && now - issuedAt <= FORM_TOKEN_TTL_MS)) return false;
  const given = Buffer.from(match[2]!, 'base64url');
  const expected = mac(key, userId, clientId, issuedAt);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
