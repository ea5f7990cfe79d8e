/**
 * The flow as a generic RFC 6749 client library performs it (the defaults of
 * simple-oauth2 / oauth4webapi): authorization request with state and PKCE
 * S256, token request as a form POST with HTTP Basic client authentication,
 * grant_type=authorization_code and Accept: application/json — over a real
 * socket, with fetch, so nothing emulator-specific is involved.
 */
import { createHash, randomBytes } from 'node:crypto';
import { startEmulator, type RunningEmulator } from '../src';
import { CLIENT, requestIdOf, USERS } from './helpers';

describe('a standard OAuth 2.0 client', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    // A plain RFC 7636 client: the provider's own dialog would drop its challenge without `openid`.
    emulator = await startEmulator({ clients: [CLIENT], port: 0, profile: 'strict-rfc' });
  });
  afterAll(() => emulator.close());

  it('when it runs the authorization-code flow with PKCE S256 and client_secret_basic, then it gets a token that reads /me', async () => {
    // 1. Authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3).
    const state = randomBytes(16).toString('base64url');
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL('/v23.0/dialog/oauth', emulator.url);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: CLIENT.clientId,
      redirect_uri: CLIENT.redirectUri,
      scope: 'public_profile pages_show_list',
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    const page = await fetch(authorize);
    expect(page.status).toBe(200);

    // The person approves (what the browser does).
    const decision = await fetch(new URL('/v23.0/dialog/oauth/decision', emulator.url), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        request_id: requestIdOf(await page.text()),
        decision: 'continue',
        user_id: USERS.grace,
        [`perm_${USERS.grace}`]: 'pages_show_list',
      }),
    });
    expect(decision.status).toBe(302);

    // 2. Authorization response (RFC 6749 §4.1.2): the client checks state.
    const callback = new URL(decision.headers.get('location') ?? '');
    expect(`${callback.origin}${callback.pathname}`).toBe(CLIENT.redirectUri);
    expect(callback.searchParams.get('state')).toBe(state);
    const code = callback.searchParams.get('code') ?? '';

    // 3. Access token request (RFC 6749 §4.1.3, §2.3.1).
    const credentials = Buffer.from(
      `${encodeURIComponent(CLIENT.clientId)}:${encodeURIComponent(CLIENT.clientSecret)}`,
    ).toString('base64');
    const tokenRes = await fetch(new URL('/v23.0/oauth/access_token', emulator.url), {
      method: 'POST',
      headers: {
        authorization: `Basic ${credentials}`,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: CLIENT.redirectUri,
        code_verifier: verifier,
      }),
    });
    expect(tokenRes.status).toBe(200);
    expect(tokenRes.headers.get('content-type')).toMatch(/^application\/json/);
    const token = (await tokenRes.json()) as { access_token: string; token_type: string; expires_in: number };
    // RFC 6749 §5.1: token_type is case-insensitive; libraries lowercase it.
    expect(token.token_type.toLowerCase()).toBe('bearer');
    expect(typeof token.expires_in).toBe('number');

    // 4. Protected resource with the Bearer header (RFC 6750 §2.1).
    const me = await fetch(new URL('/v23.0/me?fields=id,name', emulator.url), {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(await me.json()).toEqual({ id: USERS.grace, name: 'Grace Hopper' });
  });
});
