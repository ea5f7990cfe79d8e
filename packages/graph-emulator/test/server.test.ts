import http from 'node:http';
import path from 'node:path';
import { createEmulator, DEMO_CLIENT, startEmulator } from '../src';
import { demoClient } from '../src/demo';
import { loadProviderEnv, maskSecret } from '../src/env';
import { providerViewsDir } from '../src/views';
import { CLIENT } from './helpers';

function get(url: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

describe('startEmulator', () => {
  it('when a keep-alive connection and a hanging request are open, then close() still resolves promptly', async () => {
    const emulator = await startEmulator({ clients: [CLIENT] });
    const agent = new http.Agent({ keepAlive: true });
    expect(await get(`${emulator.url}/me`, agent)).toBe(400);
    emulator.controls.failNext(1, { kind: 'hang' });
    const hanging = get(`${emulator.url}/me`, agent).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 50));
    const t = Date.now();
    await emulator.close();
    expect(Date.now() - t).toBeLessThan(1000);
    expect(await hanging).toMatchObject({ code: 'ECONNRESET' });
    agent.destroy();
    await emulator.close(); // idempotent
  });

  it('when the port is taken, then it rejects with EADDRINUSE', async () => {
    const first = await startEmulator({ clients: [CLIENT] });
    await expect(startEmulator({ clients: [CLIENT], port: first.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await first.close();
  });
});

describe('createEmulator options', () => {
  it.each([
    ['no client', { clients: [] }],
    ['a redirect with a fragment', { clients: [{ ...CLIENT, redirectUri: 'http://a.test/cb#x' }] }],
    ['a non-http redirect', { clients: [{ ...CLIENT, redirectUri: 'javascript:alert(1)' }] }],
    ['a relative redirect', { clients: [{ ...CLIENT, redirectUri: '/cb' }] }],
    ['a duplicate client', { clients: [CLIENT, CLIENT] }],
    ['a missing secret', { clients: [{ ...CLIENT, clientSecret: '' }] }],
    ['a negative codeTtlMs', { clients: [CLIENT], codeTtlMs: -1 }],
  ])('when given %s, then it throws at creation', (_n, opts) => {
    expect(() => createEmulator(opts)).toThrow(/createEmulator/);
  });
});

describe('views', () => {
  it('when resolved from src or dist, then the views folder of the package is found', () => {
    const root = path.resolve(__dirname, '..');
    const expected = path.join(root, 'views');
    expect(providerViewsDir(path.join(root, 'src'))).toBe(expected);
    expect(providerViewsDir(path.join(root, 'dist'))).toBe(expected);
  });

  it('when no views folder exists above, then a clear error', () => {
    expect(() => providerViewsDir('/')).toThrow(/cannot find/);
  });
});

describe('stand-alone configuration (npm run provider)', () => {
  it('when nothing is set, then the demo client on port 3001 with the callbacks of http://localhost:3000', () => {
    expect(loadProviderEnv({})).toEqual({
      port: 3001,
      host: '127.0.0.1',
      expose: false,
      hosts: [],
      demo: true,
      profile: 'facebook',
      activity: false,
      seed: 'demo',
      emptyFeedPages: [50],
      removedFields: [],
      failNext: [],
      client: {
        ...DEMO_CLIENT,
        redirectUri: 'http://localhost:3000/auth/callback',
        deauthorizeUrl: 'http://localhost:3000/auth/deauthorize',
        dataDeletionUrl: 'http://localhost:3000/auth/data-deletion',
      },
    });
    expect(DEMO_CLIENT).toEqual({
      clientId: '1234567890123456',
      clientSecret: 'demo-app-secret-not-for-production',
      name: 'Demo App',
    });
  });

  it('when FB_APP_ID, FB_APP_SECRET, BASE_URL and PROVIDER_PORT are set, then they are used', () => {
    const env = loadProviderEnv({
      FB_APP_ID: '42',
      FB_APP_SECRET: 's3cret',
      BASE_URL: 'https://pagelight.example/',
      PROVIDER_PORT: '4001',
    });
    expect(env).toEqual({
      port: 4001,
      host: '127.0.0.1',
      expose: false,
      hosts: [],
      demo: false,
      profile: 'facebook',
      activity: false,
      seed: 'demo',
      emptyFeedPages: [50],
      removedFields: [],
      failNext: [],
      client: {
        clientId: '42',
        clientSecret: 's3cret',
        redirectUri: 'https://pagelight.example/auth/callback',
        deauthorizeUrl: 'https://pagelight.example/auth/deauthorize',
        dataDeletionUrl: 'https://pagelight.example/auth/data-deletion',
        name: 'Demo App',
      },
    });
  });

  it('when EMULATOR_APP_NAME is set, then the registered app, demo or not, has that name; a name with a control character is one line naming it', () => {
    expect(loadProviderEnv({ EMULATOR_APP_NAME: 'Acme Pages' }).client.name).toBe('Acme Pages');
    expect(loadProviderEnv({ EMULATOR_APP_NAME: 'Acme', FB_APP_ID: '42', FB_APP_SECRET: 's' }).client.name).toBe(
      'Acme',
    );
    expect(() => loadProviderEnv({ EMULATOR_APP_NAME: 'a\nb' })).toThrow(/^EMULATOR_APP_NAME must/);
  });

  it('when EMULATOR_SEED is test, then the test seed; empty means the demo', () => {
    expect(loadProviderEnv({ EMULATOR_SEED: 'test' }).seed).toBe('test');
    expect(loadProviderEnv({ EMULATOR_SEED: '' }).seed).toBe('demo');
  });

  it('when EMULATOR_EMPTY_FEED_PAGES is 25,50 or none, then those positions or none; anything else is one line naming it', () => {
    expect(loadProviderEnv({ EMULATOR_EMPTY_FEED_PAGES: '50,25' }).emptyFeedPages).toEqual([25, 50]);
    expect(loadProviderEnv({ EMULATOR_EMPTY_FEED_PAGES: 'none' }).emptyFeedPages).toEqual([]);
    expect(loadProviderEnv({ EMULATOR_EMPTY_FEED_PAGES: '' }).emptyFeedPages).toEqual([50]);
    for (const bad of ['all', '25;50', '-1', '1.5', '2000000'])
      expect(() => loadProviderEnv({ EMULATOR_EMPTY_FEED_PAGES: bad })).toThrow(/^EMULATOR_EMPTY_FEED_PAGES must/);
  });

  it('when PORT is set without BASE_URL, then the callback uses it', () => {
    expect(loadProviderEnv({ PORT: '8080' }).client.redirectUri).toBe('http://localhost:8080/auth/callback');
    expect(demoClient('http://x.test//').redirectUri).toBe('http://x.test/auth/callback');
  });

  it.each([
    [{ PROVIDER_PORT: 'abc' }, /^PROVIDER_PORT must be a port number/],
    [{ PROVIDER_PORT: '0' }, /^PROVIDER_PORT/],
    [{ PROVIDER_PORT: '70000' }, /^PROVIDER_PORT/],
    [{ PORT: '-1' }, /^PORT/],
    [{ BASE_URL: 'ftp://x' }, /^BASE_URL/],
    [{ BASE_URL: 'not a url' }, /^BASE_URL/],
    [{ FB_APP_ID: '42' }, /^FB_APP_SECRET is required/],
    [
      { EMULATOR_SEED: 'prod' },
      /^EMULATOR_SEED must be one of demo, test or a seed file's path \(\.\/my-seed\.json\), got "prod"$/,
    ],
    [{ EMULATOR_SEED: 'Test' }, /^EMULATOR_SEED/],
  ])('when %j, then one line naming the variable', (env, message) => {
    expect(() => loadProviderEnv(env)).toThrow(message);
  });

  it('when the secret is printed, then only its first 4 characters show', () => {
    expect(maskSecret('demo-app-secret')).toBe('demo…');
  });
});
