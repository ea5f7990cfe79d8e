import type { Request } from 'express';
import { beginLogin, consumeState, dropState, MAX_PENDING, PENDING_TTL_MS } from '../../src/auth/pending';
import '../../src/session/types';

function fakeRequest(): Request {
  return { session: {} } as unknown as Request;
}

describe('pending logins (state store)', () => {
  it('when a login starts, then its state and verifier are 256-bit base64url values', () => {
    const req = fakeRequest();
    const login = beginLogin(req, 1000);
    expect(login.s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(login.v).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(login.s).not.toBe(login.v);
    expect(req.session.pending).toEqual([login]);
  });

  it('when the state comes back, then it is accepted once and only once', () => {
    const req = fakeRequest();
    const login = beginLogin(req, 1000);
    expect(consumeState(req, login.s, 2000)).toEqual({ ok: true, verifier: login.v });
    expect(consumeState(req, login.s, 2000)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('when several tabs start logins, then each state is honoured', () => {
    const req = fakeRequest();
    const a = beginLogin(req, 1000);
    const b = beginLogin(req, 1001);
    expect(consumeState(req, b.s, 2000)).toEqual({ ok: true, verifier: b.v });
    expect(consumeState(req, a.s, 2000)).toEqual({ ok: true, verifier: a.v });
  });

  it('when more logins start than the bound, then only the newest are kept', () => {
    const req = fakeRequest();
    const logins = Array.from({ length: MAX_PENDING + 3 }, (_, i) => beginLogin(req, 1000 + i));
    expect(req.session.pending).toHaveLength(MAX_PENDING);
    expect(consumeState(req, logins[0]!.s, 2000).ok).toBe(false);
  });

  it('when the state is older than 10 minutes, then it is refused as expired and removed', () => {
    const req = fakeRequest();
    const login = beginLogin(req, 0);
    expect(consumeState(req, login.s, PENDING_TTL_MS)).toEqual({ ok: false, reason: 'expired' });
    expect(req.session.pending).toBeUndefined();
  });

  it('when the state is missing or unknown, then every pending login of the session is dropped', () => {
    const req = fakeRequest();
    beginLogin(req, 0);
    expect(consumeState(req, undefined, 1)).toEqual({ ok: false, reason: 'missing' });
    expect(req.session.pending).toBeUndefined();
    beginLogin(req, 0);
    expect(consumeState(req, 'forged', 1)).toEqual({ ok: false, reason: 'unknown' });
    expect(req.session.pending).toBeUndefined();
  });

  it('when no login was started, then any state is unknown', () => {
    expect(consumeState(fakeRequest(), 'anything', 1)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('when a login is cancelled, then only its own state is dropped', () => {
    const req = fakeRequest();
    const a = beginLogin(req, 0);
    const b = beginLogin(req, 1);
    dropState(req, a.s);
    expect(req.session.pending).toEqual([b]);
  });
});
