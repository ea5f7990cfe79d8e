/**
 * openid-client: a certified OpenID Connect relying party completes the provider's OIDC code flow with PKCE
 * ("OIDC Code Flow with PKCE for Manually Built Facebook Login Flows") against the emulator over a real
 * socket: discovery, the dialog, the code exchange and the ID token's validation (signature from the JWKS,
 * iss, aud, exp, nonce). openid-client 6 is an ES module only, which jest's CommonJS runtime cannot load, so
 * it runs in a node process of its own (openid-client-run.mjs) and this test plays the browser between them.
 * docs/fidelity.md.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startEmulator, type RunningEmulator } from '../../src';
import { CLIENT, USERS } from '../helpers';
import { approveAtDialog } from './browser';

interface ClientSays {
  authorize?: string;
  tokenEndpointAdvertised?: string | null;
  claims?: Record<string, unknown>;
  tokenType?: string;
  error?: string;
}

describe('openid-client against the emulator', () => {
  let emulator: RunningEmulator;
  let child: ChildProcessWithoutNullStreams | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ clients: [CLIENT] });
  });
  afterAll(async () => {
    child?.kill();
    await emulator.close();
  });

  it('when it discovers the provider and runs the OIDC code flow with PKCE, then the ID token it validated names the person', async () => {
    child = spawn(process.execPath, [join(__dirname, 'openid-client-run.mjs')], {
      env: {
        ...process.env,
        EMULATOR_URL: emulator.url,
        CLIENT_ID: CLIENT.clientId,
        CLIENT_SECRET: CLIENT.clientSecret,
        REDIRECT_URI: CLIENT.redirectUri,
        TOKEN_ENDPOINT: `${emulator.url}/v25.0/oauth/access_token`,
      },
    });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async (): Promise<ClientSays> => {
      const line = await lines.next();
      if (line.done === true) throw new Error('openid-client-run.mjs stopped without a word');
      return JSON.parse(line.value) as ClientSays;
    };

    const start = await next();
    expect(start).toMatchObject({ tokenEndpointAdvertised: null });
    const authorize = new URL(start.authorize ?? '');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const callback = await approveAtDialog(authorize.href, USERS.ada);
    child.stdin.write(`${callback.href}\n`);

    const done = await next();
    expect(done.error).toBeUndefined();
    expect(done.tokenType?.toLowerCase()).toBe('bearer');
    expect(done.claims).toMatchObject({
      iss: emulator.url,
      aud: CLIENT.clientId,
      sub: USERS.ada,
      name: 'Ada Lovelace',
    });
  });
});
