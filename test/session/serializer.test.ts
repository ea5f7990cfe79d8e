import { tolerantJson } from '../../src/session/serializer';

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

describe('tolerantJson (the Redis store)', () => {
  it('when a session written before the rename holds its sign-in under `connection`, then it reads as signIn', () => {
    const written = JSON.stringify({ cookie, connection: signIn, csrf: 'c' });
    expect(tolerantJson.parse(written)).toEqual({ cookie, signIn, csrf: 'c' });
  });
});
