import { tolerantJson } from '../../src/session/serializer';
import { storedCookie, storedSignIn } from '../support/stored-session';

const [cookie, signIn] = [storedCookie, storedSignIn];

describe('tolerantJson (the Redis store)', () => {
  it('when a session written before the rename holds its sign-in under `connection`, then it reads as signIn', () => {
    const written = JSON.stringify({ cookie, connection: signIn, csrf: 'c' });
    expect(tolerantJson.parse(written)).toEqual({ cookie, signIn, csrf: 'c' });
  });
});
