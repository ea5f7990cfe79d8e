import type { Request } from 'express';
import type { VerifiedCallback } from '../graph/client';
import { safeEqual } from '../session/csrf';
import { PENDING_SESSION_MS } from '../session/lifetimes';
import type { PendingLogin } from '../session/types';
import { requireCode, type CallbackParams } from './callback';
import { randomToken } from './pkce';

/** How many logins may be pending in one session at once (several tabs). */
export const MAX_PENDING = 5;
/** How long a login may take at the provider before its state is refused. */
export const PENDING_TTL_MS = PENDING_SESSION_MS;

/**
 * Starts a login: a fresh state, and a PKCE verifier and OIDC nonce when the
 * configuration asks for them, kept in the session. The oldest pending one
 * goes when the set is full.
 */
export function beginLogin(
  req: Request,
  now: number,
  use: { pkce: boolean; oidc: boolean },
  returnTo?: string,
): PendingLogin {
  const pending = (req.session.pending ?? []).filter((p) => now - p.createdAt < PENDING_TTL_MS);
  const login: PendingLogin = {
    state: randomToken(),
    ...(use.pkce ? { verifier: randomToken() } : {}),
    ...(use.oidc ? { nonce: randomToken() } : {}),
    createdAt: now,
    ...(returnTo !== undefined ? { returnTo } : {}),
  };
  pending.push(login);
  req.session.pending = pending.slice(-MAX_PENDING);
  return login;
}

export type StateCheck =
  | { ok: true; callback: VerifiedCallback; returnTo: string | undefined }
  | { ok: false; reason: 'missing' | 'unknown' | 'expired' };

/**
 * Checks the `state` the provider sent back against the pending logins
 * (RFC 6749 §10.12). A state is good once: it is removed whatever the
 * outcome. A missing or unknown state may be a forged callback (login CSRF),
 * so every pending login of the session is dropped then. Each comparison is
 * constant-time. Only a state that passes yields the code and verifier the
 * exchange takes; a matching state without a code is a 400.
 */
export function consumeState(req: Request, params: CallbackParams & { kind: 'code' }, now: number): StateCheck {
  const { state } = params;
  const pending = req.session.pending ?? [];
  const match = state ? pending.find((p) => safeEqual(p.state, state)) : undefined;
  if (!match) {
    delete req.session.pending;
    return { ok: false, reason: state ? 'unknown' : 'missing' };
  }
  const rest = pending.filter((p) => p !== match);
  if (rest.length > 0) req.session.pending = rest;
  else delete req.session.pending;
  if (now - match.createdAt >= PENDING_TTL_MS) return { ok: false, reason: 'expired' };
  const callback = {
    code: requireCode(params),
    ...(match.verifier !== undefined ? { verifier: match.verifier } : {}),
    ...(match.nonce !== undefined ? { nonce: match.nonce } : {}),
  };
  return { ok: true, callback: callback as VerifiedCallback, returnTo: match.returnTo };
}

/** When the pending login this state names began (read before {@link consumeState} removes it). */
export function startedAtOf(req: Request, state: string | undefined): number | undefined {
  return state ? (req.session.pending ?? []).find((p) => safeEqual(p.state, state))?.createdAt : undefined;
}

/** A cancelled login gives its state back without judging anything else. */
export function dropState(req: Request, state: string | undefined): void {
  if (!state || !req.session.pending) return;
  const rest = req.session.pending.filter((p) => !safeEqual(p.state, state));
  if (rest.length > 0) req.session.pending = rest;
  else delete req.session.pending;
}
