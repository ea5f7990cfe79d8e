/**
 * App access tokens (Facebook Login "Access Tokens", App Access Tokens): the
 * app itself calling, not a person. `grant_type=client_credentials` hands one
 * out; the provider also takes the app id and secret written
 * `{app-id}|{app-secret}`. Both name the app before the `|`. The handed-out
 * one is derived from the secret, so it stays the same until the secret
 * changes, as the provider's does, and needs no store.
 * docs/specification.md#app-tokens
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from '../context';
import { GraphError } from '../errors';
import type { EmulatorClient } from '../types';

/** The token `client_credentials` answers for this app. */
export function appTokenFor(client: EmulatorClient): string {
  const mac = createHmac('sha256', client.clientSecret).update(`app-token:${client.clientId}`).digest('base64url');
  return `${client.clientId}|${mac.slice(0, 27)}`;
}

/** Whether a token is written like an app token (user and page tokens never hold a `|`). */
export function isAppToken(token: string): boolean {
  return token.indexOf('|') > 0;
}

/** The app an app token speaks for; 190 when the part after `|` is neither its secret nor its token. */
export function appOfToken(ctx: Context, token: string): EmulatorClient {
  const bar = token.indexOf('|');
  const client = ctx.clients.get(token.slice(0, bar));
  if (client === undefined || !(same(token.slice(bar + 1), client.clientSecret) || same(token, appTokenFor(client)))) {
    throw new GraphError({ code: 190, message: 'Invalid OAuth access token signature.' });
  }
  return client;
}

/** `/me` with an app token: there is no person (reported by client libraries as code 2500). */
export const noCurrentUser = (): GraphError =>
  new GraphError({
    code: 2500,
    message: 'An active access token must be used to query information about the current user.',
  });

/** An app-only method called with a user or page token. */
export const appTokenRequired = (): GraphError =>
  new GraphError({ code: 15, message: '(#15) This method must be called with an app access_token.' });

function same(a: string, b: string): boolean {
  // Hash first so the comparison is constant-time regardless of lengths.
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
