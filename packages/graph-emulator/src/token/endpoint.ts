/**
 * `/oauth/access_token` (https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow#confirm):
 * the authorization-code exchange (RFC 6749 §4.1.3, with PKCE) and the
 * long-lived token exchange (`grant_type=fb_exchange_token`,
 * https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived)
 * and the app token (`grant_type=client_credentials`, docs/specification.md#app-tokens).
 * GET with a query or POST with a form, as the real endpoint accepts both.
 */
import type { Request, Response } from 'express';
import type { Context } from '../context';
import { GraphError } from '../errors';
import { sendJson } from '../respond';
import { collectParams, formBody } from '../params';
import type { CodeRecord } from '../store/codes';
import { unknownTokenError } from '../store/token-errors';
import type { TokenRecord } from '../store/tokens';
import type { EmulatorClient } from '../types';
import { appTokenFor } from './app-token';
import { authenticateClient } from './client-auth';
import { idTokenFor } from './id-token';
import { checkVerifier } from './pkce';

const missing = (name: string): GraphError => new GraphError({ code: 100, message: `Missing ${name} parameter.` });

export async function tokenEndpoint(ctx: Context, req: Request, res: Response): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'POST' && req.method !== 'HEAD') {
    throw new GraphError({
      code: 100,
      type: 'GraphMethodException',
      message: `Unsupported ${req.method.toLowerCase()} request.`,
    });
  }
  const { values: params, repeated } = collectParams(req.query, formBody(req));
  if (repeated[0] !== undefined)
    throw new GraphError({ code: 100, message: `Param ${repeated[0]} must be a single value.` });
  const client = authenticateClient(ctx, req, params);
  const grant = params.grant_type;
  // RFC 6749 §5.1: token responses must not be cached.
  res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  if (grant === 'client_credentials') {
    // An app token never expires, so the provider sends no expires_in (docs/specification.md#app-tokens).
    sendJson(res, 200, { access_token: appTokenFor(client), token_type: 'bearer' });
    return;
  }
  let record: TokenRecord;
  let idToken: string | undefined;
  if (grant === 'fb_exchange_token') record = exchangeForLongLived(ctx, client, params);
  else if (grant === undefined || grant === 'authorization_code') {
    const redeemed = redeemCode(ctx, client, params);
    record = redeemed.record;
    idToken = await idTokenFor(ctx, redeemed.code);
  } else throw new GraphError({ code: 100, message: `Unsupported grant_type: ${grant.slice(0, 100)}` });
  sendJson(res, 200, {
    access_token: record.token,
    token_type: 'bearer',
    expires_in: Math.round(((record.expiresAt ?? ctx.now()) - ctx.now()) / 1000),
    ...(idToken !== undefined ? { id_token: idToken } : {}),
  });
}

/** Each refusal of a code carries the provider's `invalid_code` challenge (docs/specification.md#code-exchange-refusals). */
function redeemCode(
  ctx: Context,
  client: EmulatorClient,
  params: Record<string, string>,
): { record: TokenRecord; code: CodeRecord } {
  const redirectUri = params.redirect_uri;
  if (redirectUri === undefined) throw missing('redirect_uri');
  checkRedirectUri(client, redirectUri);
  if (params.code === undefined || params.code === '') throw missing('code');
  const code = ctx.codes.find(params.code);
  if (code === undefined)
    throw new GraphError({ code: 100, challenge: 'invalid_code', message: 'Invalid verification code format.' });
  if (code.usedAt !== undefined) {
    // RFC 6749 §4.1.2: on a replayed code, revoke what it already produced.
    ctx.tokens.revokeGrant(code.code, 'password_changed');
    throw new GraphError({
      code: 100,
      subcode: 36009,
      challenge: 'invalid_code',
      message: 'This authorization code has been used.',
    });
  }
  if (ctx.codes.isExpired(code)) {
    throw new GraphError({
      code: 100,
      subcode: 36007,
      challenge: 'invalid_code',
      message: 'This authorization code has expired.',
    });
  }
  if (code.clientId !== client.clientId || code.redirectUri !== redirectUri) {
    throw new GraphError({
      code: 100,
      subcode: 36008,
      challenge: 'invalid_code',
      message:
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
    });
  }
  checkVerifier(code, params.code_verifier, ctx.profile);
  ctx.codes.markUsed(code);
  const record = ctx.tokens.issueForCode(code, ctx.userTokenTtlSec);
  return { record, code };
}

/**
 * The redirect_uri against the app's settings, before the code: not an absolute URI, or on a domain the app
 * did not register, is code 191 (docs/specification.md#code-exchange-refusals).
 */
function checkRedirectUri(client: EmulatorClient, redirectUri: string): void {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    throw new GraphError({
      code: 191,
      challenge: 'invalid_request',
      message: "redirect_uri isn't an absolute URI. Check RFC 3986.",
    });
  }
  if (url.hostname !== new URL(client.redirectUri).hostname) {
    throw new GraphError({
      code: 191,
      message:
        "Can't Load URL: The domain of this URL isn't included in the app's domains. To be able to load this URL, add all domains and subdomains of your app to the App Domains field in your app settings.",
    });
  }
}

function exchangeForLongLived(ctx: Context, client: EmulatorClient, params: Record<string, string>): TokenRecord {
  const short = params.fb_exchange_token;
  if (short === undefined || short === '') throw missing('fb_exchange_token');
  const record = ctx.tokens.validate(short);
  if (record.kind !== 'user' || record.clientId !== client.clientId) {
    throw unknownTokenError();
  }
  return ctx.tokens.issueUser({
    clientId: client.clientId,
    userId: record.userId,
    scopes: record.scopes,
    declined: record.declined,
    ttlSec: ctx.longLivedTtlSec,
    longLived: true,
    grantId: record.grantId,
    ...(record.pages !== undefined ? { pages: record.pages } : {}),
  });
}
