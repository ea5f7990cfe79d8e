import type { Request } from 'express';
import { parseCallback } from '../../src/auth/callback';
import { beginLogin, consumeState as consume, dropState, MAX_PENDING, PENDING_TTL_MS } from '../../src/auth/pending';
import '../../src/session/types';

/** The state check as the callback route runs it: on the parsed redirect `?code=the-code&state=…`. */
function consumeState(req: Request, state: string | undefined, now: number) {
  const params = parseCallback(state === undefined ? { code: 'the-code' } : { code: 'the-code', state });
  if (params.kind !== 'code') throw new Error('expected a code callback');
  return consume(req, params, now);
}
const verified = (verifier: string | undefined) => ({ ok: true, callback: { code: 'the-code', verifier } });
/** These tests run with PKCE on, as FB_PKCE=on configures it. */
const PKCE = { pkce: true, oidc: false };

function fakeRequest(): Request {
  return { session: {} } as unknown as Request;
}

describe('pending logins (state store)', () => {
  it('when PKCE is off and openid not asked for, then the login keeps a state only; with openid, a nonce too', () => {
    const req = fakeRequest();
    const plain = beginLogin(req, 1000, { pkce: false, oidc: false });
    expect(Object.keys(plain).sort()).toEqual(['createdAt', 'state']);
    const oidc = beginLogin(req, 1000, { pkce: true, oidc: true });
    expect(oidc.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([oidc.state, oidc.verifier, oidc.nonce]).size).toBe(3);
    const params = parseCallback({ code: 'the-code', state: oidc.state });
    if (params.kind !== 'code') throw new Error('expected a code callback');
    expect(consume(req, params, 2000)).toEqual({
      ok: true,
      callback: { code: 'the-code', verifier: oidc.verifier, nonce: oidc.nonce },
    });
  });

  it('when a login starts, then its state and verifier are 256-bit base64url values', () => {
    const req = fakeRequest();
    const login = beginLogin(req, 1000, PKCE);
    expect(login.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(login.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(login.state).not.toBe(login.verifier);
    expect(req.session.pending).toEqual([login]);
  });

  it('when the state comes back, then it is accepted once and only once', () => {
    const req = fakeRequest();
    const login = beginLogin(req, 1000, PKCE);
    expect(consumeState(req, login.state, 2000)).toEqual(verified(login.verifier));
    expect(consumeState(req, login.state, 2000)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('when several tabs start logins, then each state is honoured', () => {
    const req = fakeRequest();
    const a = beginLogin(req, 1000, PKCE);
    const b = beginLogin(req, 1001, PKCE);
    expect(consumeState(req, b.state, 2000)).toEqual(verified(b.verifier));
    expect(consumeState(req, a.state, 2000)).toEqual(verified(a.verifier));
  });

  it('when more logins start than the bound, then only the newest are kept', () => {
    const req = fakeRequest();
    const logins = Array.from({ length: MAX_PENDING + 3 }, (_, i) => beginLogin(req, 1000 + i, PKCE));
    expect(req.session.pending).toHaveLength(MAX_PENDING);
    expect(consumeState(req, logins[0]!.state, 2000).ok).toBe(false);
  });

  it('when the state is older than 10 minutes, then it is refused as expired and removed', () => {
    const req = fakeRequest();
    const login = beginLogin(req, 0, PKCE);
    expect(consumeState(req, login.state, PENDING_TTL_MS)).toEqual({ ok: false, reason: 'expired' });
    expect(req.session.pending).toBeUndefined();
  });

  it('when the state is missing or unknown, then every pending login of the session is dropped', () => {
    const req = fakeRequest();
    beginLogin(req, 0, PKCE);
    expect(consumeState(req, undefined, 1)).toEqual({ ok: false, reason: 'missing' });
    expect(req.session.pending).toBeUndefined();
    beginLogin(req, 0, PKCE);
    expect(consumeState(req, 'forged', 1)).toEqual({ ok: false, reason: 'unknown' });
    expect(req.session.pending).toBeUndefined();
  });

  it('when the state matches but the provider sent no code, then it is a 400 and the state is spent', () => {
    const req = fakeRequest();
    const login = beginLogin(req, 0, PKCE);
    const params = parseCallback({ state: login.state });
    if (params.kind !== 'code') throw new Error('expected a code callback');
    expect(() => consume(req, params, 1)).toThrow(expect.objectContaining({ status: 400, code: 'bad_request' }));
    expect(req.session.pending).toBeUndefined();
  });

  it('when no login was started, then any state is unknown', () => {
    expect(consumeState(fakeRequest(), 'anything', 1)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('when a login is cancelled, then only its own state is dropped', () => {
    const req = fakeRequest();
    const a = beginLogin(req, 0, PKCE);
    const b = beginLogin(req, 1, PKCE);
    dropState(req, a.state);
    expect(req.session.pending).toEqual([b]);
  });
});
