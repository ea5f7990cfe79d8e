import { createHmac } from 'node:crypto';

/**
 * `appsecret_proof`: lowercase hex HMAC-SHA256 of the access token keyed by
 * the app secret, so a stolen token is useless without the secret.
 * @see https://developers.facebook.com/docs/graph-api/securing-requests/
 */
export function appSecretProof(accessToken: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(accessToken).digest('hex');
}
