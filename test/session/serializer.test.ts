import { checkedOnWriteJson, tolerantJson, withCookie } from '../../src/session/serializer';

const cookie = {
  originalMaxAge: 3600000,
  expires: '2026-01-01T00:00:00.000Z',
  httpOnly: true,
  path: '/',
  sameSite: 'lax',
};
const connection = {
  userToken: 'k1.sealed',
  expiresAt: null,
  loggedInAt: 1,
  pages: { '123': { token: 'k1.page', name: 'Bakery' } },
};

describe('checkedOnWriteJson (the memory store)', () => {
  it('when a session is written and read back, then it reads as the session it was', () => {
    const stored = checkedOnWriteJson.stringify({ cookie, connection, csrf: 'c' });
    expect(checkedOnWriteJson.parse(stored)).toEqual({ cookie, connection, csrf: 'c' });
    expect(tolerantJson.parse(JSON.stringify(checkedOnWriteJson.parse(stored)))).toEqual({
      cookie,
      connection,
      csrf: 'c',
    });
  });

  it('when a part has the wrong shape, then it is dropped as it is written, and a value that is no session reads as none', () => {
    const stored = checkedOnWriteJson.stringify({ cookie, connection: { ...connection, pages: null }, csrf: 'c' });
    expect(checkedOnWriteJson.parse(stored)).toEqual({ cookie, csrf: 'c' });
    expect(checkedOnWriteJson.parse(checkedOnWriteJson.stringify({ connection }))).toBeNull();
    expect(checkedOnWriteJson.parse('{broken')).toBeUndefined();
  });

  it('when a session is touched, then only its cookie changes; a value that is no session is not touched', () => {
    const stored = checkedOnWriteJson.stringify({ cookie, connection });
    const later = { ...cookie, expires: '2026-01-02T00:00:00.000Z' };
    expect(checkedOnWriteJson.parse(withCookie(stored, later)!)).toEqual({ cookie: later, connection });
    expect(withCookie('null', later)).toBeUndefined();
  });
});
