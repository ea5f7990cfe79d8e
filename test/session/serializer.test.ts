import { checkedOnWriteJson, tolerantJson } from '../../src/session/serializer';

const cookie = {
  originalMaxAge: 3600000,
  expires: '2026-01-01T00:00:00.000Z',
  httpOnly: true,
  path: '/',
  sameSite: 'lax',
};
const signIn = {
  userToken: 'k1.sealed',
  expiresAt: null,
  loggedInAt: 1,
  pages: { '123': { token: 'k1.page', name: 'Bakery' } },
};

describe('checkedOnWriteJson (the memory store)', () => {
  it('when a session is written and read back, then it reads as the session it was', () => {
    const stored = checkedOnWriteJson.stringify({ cookie, signIn, csrf: 'c' });
    expect(checkedOnWriteJson.parse(stored)).toEqual({ cookie, signIn, csrf: 'c' });
    expect(tolerantJson.parse(JSON.stringify(checkedOnWriteJson.parse(stored)))).toEqual({
      cookie,
      signIn,
      csrf: 'c',
    });
  });

  it('when a part has the wrong shape, then it is dropped as it is written, and a value that is no session reads as none', () => {
    const stored = checkedOnWriteJson.stringify({ cookie, signIn: { ...signIn, pages: null }, csrf: 'c' });
    expect(checkedOnWriteJson.parse(stored)).toEqual({ cookie, csrf: 'c' });
    expect(checkedOnWriteJson.parse(checkedOnWriteJson.stringify({ signIn }))).toBeNull();
    expect(checkedOnWriteJson.parse('{broken')).toBeUndefined();
  });

  it('when a session is touched, then only its cookie changes; a value that is no session is not touched', () => {
    const stored = checkedOnWriteJson.stringify({ cookie, signIn });
    const later = { ...cookie, expires: '2026-01-02T00:00:00.000Z' };
    // What memorystore's touch does: parse, give the value the new cookie, write it back.
    const touched = checkedOnWriteJson.parse(stored);
    touched.cookie = later as unknown as typeof touched.cookie;
    const written = checkedOnWriteJson.stringify(touched);
    expect(written.slice(written.indexOf('\n'))).toBe(stored.slice(stored.indexOf('\n')));
    expect(checkedOnWriteJson.parse(written)).toEqual({ cookie: later, signIn });
    expect(checkedOnWriteJson.parse('null')).toBeNull();
    // A session object it did not make (express-session's own) goes through the schema as it is written.
    expect(
      checkedOnWriteJson.parse(checkedOnWriteJson.stringify({ ...touched, signIn: { ...signIn, pages: null } })),
    ).toEqual({ cookie: later });
  });
});

describe('tolerantJson (the Redis store)', () => {
  it('when a session written before the rename holds its sign-in under `connection`, then it reads as signIn', () => {
    const written = JSON.stringify({ cookie, connection: signIn, csrf: 'c' });
    expect(tolerantJson.parse(written)).toEqual({ cookie, signIn, csrf: 'c' });
  });
});
