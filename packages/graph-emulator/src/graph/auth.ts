/**
 * Who is calling: the access token (from the `Authorization` header, a form
 * field or the query — the real Graph API takes all three) and, when sent,
 * the `appsecret_proof` that binds it to the app's secret
 * (https://developers.facebook.com/docs/graph-api/securing-requests#appsecret_proof).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { Context } from '../context';
import { GraphError, missingToken } from '../errors';
import type { TokenRecord } from '../store/tokens';
import type { LogEntry, TokenVia } from '../types';

export interface Caller {
  token: string;
  via: TokenVia;
  record: TokenRecord;
}

/** RFC 6750 §2.1 "Bearer"; the Graph API also takes its historical "OAuth" scheme. */
const AUTH_HEADER_RE = /^(?:Bearer|OAuth)\s+(\S+)\s*$/i;

/** The token the request presents, and how; validated by `authenticate` (or, for an app token, `appCall`). */
export function findToken(
  req: Request,
  params: Record<string, string>,
  formHasToken: boolean,
): { token: string; via: TokenVia } | undefined {
  const header = req.get('authorization');
  const match = header === undefined ? null : AUTH_HEADER_RE.exec(header);
  if (match?.[1] !== undefined) return { token: match[1], via: 'header' };
  const param = params.access_token;
  if (param === undefined || param === '') return undefined;
  return { token: param, via: formHasToken ? 'form' : 'query' };
}

/**
 * Resolves the caller or throws the provider's error: 104 without a token,
 * 190 for an unknown/expired/revoked one, 100 for a wrong appsecret_proof.
 */
export function authenticate(
  ctx: Context,
  req: Request,
  params: Record<string, string>,
  formHasToken: boolean,
  entry: LogEntry | undefined,
): Caller {
  const found = findToken(req, params, formHasToken);
  const proof = params.appsecret_proof;
  if (entry !== undefined) {
    entry.tokenVia = found?.via ?? null;
    entry.appsecretProof = proof !== undefined;
  }
  if (found === undefined) throw missingToken();
  const known = ctx.tokens.find(found.token);
  if (entry !== undefined) entry.tokenKind = known?.kind ?? 'unknown';
  const record = ctx.tokens.validate(found.token);
  if (proof !== undefined) checkProof(ctx, record, found.token, proof);
  return { ...found, record };
}

function checkProof(ctx: Context, record: TokenRecord, token: string, proof: string): void {
  const secret = ctx.clients.get(record.clientId)?.clientSecret ?? '';
  const expected = createHmac('sha256', secret).update(token).digest('hex');
  // Lowercase hex only, as the provider computes it; compared in constant time.
  const ok = /^[0-9a-f]{64}$/.test(proof) && timingSafeEqual(Buffer.from(proof, 'utf8'), Buffer.from(expected, 'utf8'));
  if (!ok) {
    throw new GraphError({
      code: 100,
      type: 'GraphMethodException',
      message: 'Invalid appsecret_proof provided in the API argument',
    });
  }
}

export function hasScope(record: TokenRecord, permission: string): boolean {
  return record.scopes.includes(permission);
}
