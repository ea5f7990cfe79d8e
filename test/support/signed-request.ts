import { createHmac } from 'node:crypto';

/**
 * A `signed_request` as the provider builds it (docs/provider-interface.md#signed-request):
 * base64url(HMAC-SHA256(secret, payloadText)) + '.' + payloadText, where payloadText is base64url(JSON).
 * `payload` replaces or adds fields; `sign` overrides what is signed (forgery tests).
 */
export function signedRequest(
  secret: string,
  payload: Record<string, unknown>,
  options: { now?: number; rawPayload?: string } = {},
): string {
  const body = {
    algorithm: 'HMAC-SHA256',
    issued_at: Math.floor((options.now ?? Date.now()) / 1000),
    ...payload,
  };
  const text = options.rawPayload ?? Buffer.from(JSON.stringify(body)).toString('base64url');
  const signature = createHmac('sha256', secret).update(text).digest('base64url');
  return `${signature}.${text}`;
}
