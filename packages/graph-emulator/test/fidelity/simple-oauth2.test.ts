/**
 * simple-oauth2: a generic OAuth 2.0 client completes the authorization-code flow against the emulator over
 * a real socket, with its defaults (client_secret_basic, Accept: application/json), told only where the
 * provider's dialog and token endpoint are. docs/fidelity.md.
 */
import { randomBytes } from 'node:crypto';
import { AuthorizationCode } from 'simple-oauth2';
import { startEmulator, type RunningEmulator } from '../../src';
import { CLIENT, USERS } from '../helpers';
import { approveAtDialog } from './browser';

describe('simple-oauth2 against the emulator', () => {
  let emulator: RunningEmulator;
  let client: AuthorizationCode;
  beforeAll(async () => {
    emulator = await startEmulator({ clients: [CLIENT] });
    client = new AuthorizationCode({
      client: { id: CLIENT.clientId, secret: CLIENT.clientSecret },
      auth: { tokenHost: emulator.url, tokenPath: '/v25.0/oauth/access_token', authorizePath: '/v25.0/dialog/oauth' },
    });
  });
  afterAll(() => emulator.close());

  it('when it runs the authorization-code flow with its defaults, then its token reads /me', async () => {
    const state = randomBytes(16).toString('base64url');
    const dialog = client.authorizeURL({
      redirect_uri: CLIENT.redirectUri,
      scope: 'public_profile pages_show_list',
      state,
    });
    const callback = await approveAtDialog(dialog, USERS.grace);
    expect(callback.searchParams.get('state')).toBe(state);

    const token = await client.getToken({
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: CLIENT.redirectUri,
    });
    expect(token.expired()).toBe(false);
    const me = await fetch(`${emulator.url}/v25.0/me?fields=id,name`, {
      headers: { authorization: `Bearer ${String(token.token.access_token)}` },
    });
    expect(await me.json()).toEqual({ id: USERS.grace, name: 'Grace Hopper' });
    const exchange = emulator.controls.requestLog.find((entry) => entry.path === '/v25.0/oauth/access_token');
    expect(exchange?.status).toBe(200);
  });

  it('when the code is presented twice, then the library surfaces the provider’s refusal with its invalid_code challenge', async () => {
    const dialog = client.authorizeURL({ redirect_uri: CLIENT.redirectUri, scope: 'public_profile' });
    const code = (await approveAtDialog(dialog, USERS.grace)).searchParams.get('code') ?? '';
    await client.getToken({ code, redirect_uri: CLIENT.redirectUri });
    const refused = await client.getToken({ code, redirect_uri: CLIENT.redirectUri }).then(
      () => undefined,
      (err: { data?: { headers?: Record<string, string>; payload?: unknown } }) => err.data,
    );
    expect(refused?.headers?.['www-authenticate']).toBe(
      'OAuth "Facebook Platform" "invalid_code" "This authorization code has been used."',
    );
    expect(refused?.payload).toMatchObject({ error: { code: 100, error_subcode: 36009 } });
  });
});
