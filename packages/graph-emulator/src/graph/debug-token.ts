/**
 * `GET /{version}/debug_token?input_token=…` (Graph API reference "Debug
 * Token"; Manually Build a Login Flow, "Inspecting access tokens"): what a
 * token is, for which app and person, until when, with which permissions.
 * The caller proves it is the app: an app token (docs/specification.md#app-tokens),
 * or a user token of the same app.
 */
import type { Request, Response } from 'express';
import type { Context } from '../context';
import { badParam, GraphError, missingToken } from '../errors';
import { logEntryOf } from '../log';
import { IMPLICIT_PERMISSION } from '../permissions';
import type { TokenRecord } from '../store/tokens';
import type { EmulatorClient } from '../types';
import { sendJson } from '../respond';
import { appOfToken, isAppToken } from '../token/app-token';

const BEARER_RE = /^(?:Bearer|OAuth)\s+(\S+)\s*$/i;

export function debugToken(ctx: Context, req: Request, res: Response, params: Record<string, string>): void {
  const header = BEARER_RE.exec(req.get('authorization') ?? '')?.[1];
  const token = header ?? params.access_token;
  const entry = logEntryOf(res);
  if (entry !== undefined) entry.tokenVia = header !== undefined ? 'header' : token ? 'query' : null;
  if (token === undefined || token === '') throw missingToken();
  const app = callingApp(ctx, token);
  const input = params.input_token;
  if (input === undefined || input === '') throw badParam('The parameter input_token is required');
  const record = ctx.tokens.find(input);
  // A token of another app is not this app's business: answered like an unknown one.
  if (record === undefined || record.clientId !== app.clientId) {
    sendJson(res, 200, {
      data: { error: { code: 190, message: 'Invalid OAuth access token.' }, is_valid: false, scopes: [] },
    });
    return;
  }
  sendJson(res, 200, { data: describe(ctx, app, record) });
}

/** The app the caller speaks for; 190 for a wrong app secret or an unusable user token. */
function callingApp(ctx: Context, token: string): EmulatorClient {
  if (isAppToken(token)) return appOfToken(ctx, token);
  const record = ctx.tokens.validate(token);
  if (record.kind !== 'user') {
    throw new GraphError({
      code: 100,
      message:
        '(#100) You must provide an app access token, or a user access token that is an owner or developer of the app',
    });
  }
  const client = ctx.clients.get(record.clientId);
  if (client === undefined) throw new GraphError({ code: 190, message: 'Invalid OAuth access token.' });
  return client;
}

function describe(ctx: Context, app: EmulatorClient, record: TokenRecord): Record<string, unknown> {
  const sec = (ms: number): number => Math.floor(ms / 1000);
  const scopes = [IMPLICIT_PERMISSION, ...record.scopes.filter((s) => s !== IMPLICIT_PERMISSION)];
  const problem = usability(ctx, record);
  return {
    app_id: app.clientId,
    type: record.kind === 'page' ? 'PAGE' : 'USER',
    application: app.name,
    // The person's data access lasts 90 days from the login, whatever the token's own lifetime.
    data_access_expires_at: sec(record.issuedAt + 90 * 24 * 3_600_000),
    // 0: never expires (a page token from a long-lived user token).
    expires_at: record.expiresAt === null ? 0 : sec(record.expiresAt),
    is_valid: problem === undefined,
    issued_at: sec(record.issuedAt),
    ...(record.kind === 'page' ? { profile_id: record.pageId } : {}),
    scopes,
    // Page permissions name the Pages chosen at the dialog (docs/specification.md#page-selection).
    granular_scopes: scopes
      .filter((s) => s !== IMPLICIT_PERMISSION)
      .map((scope) =>
        scope.startsWith('pages_') && record.pages !== undefined ? { scope, target_ids: [...record.pages] } : { scope },
      ),
    user_id: record.userId,
    ...(problem === undefined
      ? {}
      : {
          error: {
            code: problem.code,
            message: problem.message,
            ...(problem.subcode ? { subcode: problem.subcode } : {}),
          },
        }),
  };
}

function usability(ctx: Context, record: TokenRecord): GraphError | undefined {
  try {
    ctx.tokens.validate(record.token);
    return undefined;
  } catch (err) {
    if (err instanceof GraphError) return err;
    throw err;
  }
}
