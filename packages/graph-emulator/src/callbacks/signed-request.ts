/**
 * The provider's `signed_request`, as its "Data Deletion Request Callback" and
 * "Deauthorize Callback" pages describe it: `<signature>.<payload>`, where the
 * payload is the base64url JSON and the signature the base64url HMAC-SHA256 of
 * that payload text, keyed by the app secret (see the package README,
 * "Removing an app").
 */
import { createHmac } from 'node:crypto';

export interface SignedRequestPayload {
  algorithm: 'HMAC-SHA256';
  /** Unix seconds. */
  issued_at: number;
  /** The app-scoped id of the person. */
  user_id: string;
}

export function signedRequest(payload: SignedRequestPayload, appSecret: string): string {
  const encoded = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  const signature = createHmac('sha256', appSecret).update(encoded).digest('base64url');
  return `${signature}.${encoded}`;
}

export function callbackPayload(userId: string, nowMs: number): SignedRequestPayload {
  return { algorithm: 'HMAC-SHA256', issued_at: Math.floor(nowMs / 1000), user_id: userId };
}
