/**
 * The dialog's way back to the app ("Manually Build a Login Flow",
 * `response_type`): a code in the query; an access token (with or without a
 * code) in the fragment, so it never reaches the app's server logs; and with
 * `granted_scopes`, the granted permissions comma-separated beside them.
 * docs/specification.md#redirect-fragment
 */
import type { Response } from 'express';
import type { Context } from '../context';
import { IMPLICIT_PERMISSION, OPENID_SCOPE } from '../permissions';
import type { CodeRecord } from '../store/codes';
import type { DialogRequest } from '../store/dialogs';

/** How long the person's data access lasts from a login, as `debug_token` reports it. */
const DATA_ACCESS_SEC = 90 * 24 * 3600;

export function redirectWithGrant(ctx: Context, res: Response, pending: DialogRequest, code: CodeRecord): void {
  const { response } = pending;
  const params: Record<string, string> = {};
  if (response.code) params.code = code.code;
  // A token-only answer hands out no code, so the one behind the grant is never redeemable.
  else ctx.codes.markUsed(code);
  if (response.token) {
    const record = ctx.tokens.issueForCode(code, ctx.userTokenTtlSec);
    params.access_token = record.token;
    params.data_access_expiration_time = String(Math.floor(ctx.now() / 1000) + DATA_ACCESS_SEC);
    params.expires_in = String(ctx.userTokenTtlSec);
  }
  if (response.grantedScopes) {
    const granted = code.granted.filter((s) => s !== IMPLICIT_PERMISSION && s !== OPENID_SCOPE);
    params.granted_scopes = [IMPLICIT_PERMISSION, ...granted].join(',');
  }
  redirectBack(res, pending, params, response.token ? 'fragment' : 'query');
}

/**
 * `redirect_uri?…&state=…#_=_`: parameters are appended to any query the
 * registered URI already has; state is echoed exactly, and omitted when none
 * was sent; the provider adds the `#_=_` fragment. In the fragment mode the
 * parameters are the fragment instead, and the registered query is kept.
 */
export function redirectBack(
  res: Response,
  pending: DialogRequest,
  params: Record<string, string>,
  mode: 'query' | 'fragment' = 'query',
): void {
  const all = new URLSearchParams(params);
  if (pending.state !== undefined) all.append('state', pending.state);
  const uri = pending.redirectUri;
  if (mode === 'fragment') {
    res.redirect(302, `${uri}#${all.toString()}`);
    return;
  }
  let separator = '?';
  if (uri.includes('?')) separator = uri.endsWith('?') || uri.endsWith('&') ? '' : '&';
  res.redirect(302, `${uri}${separator}${all.toString()}#_=_`);
}
