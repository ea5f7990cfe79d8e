import { createServer, type Server } from 'node:http';
import { createApp } from '../../src/app';
import { buildContext } from '../../src/context';
import { loadConfig } from '../../src/config';
import { graphClientFor, type GraphClient } from '../../src/graph/client';
import { createLogger } from '../../src/log/logger';
import { createMemorySessionStore } from '../../src/session/store';
import { startEmulator, SEED_IDS, type RunningEmulator } from '@pagelight/graph-emulator';
import { completeDialog } from '../support/dialog';
import { LogCapture } from '../support/stack';
import { CookieClient } from '../support/cookie-client';
import { csrfToken } from '../support/dom';
import { postIds } from '../support/flow';

/**
 * Real-provider mode: the emulator runs as a separate provider on its own
 * port, the app listens on its own, and the app knows the provider only
 * through the variables of docs/architecture.md#configuration — as with the real provider or any stand-in.
 */
describe('against a separately started provider, configured only by environment', () => {
  let emulator: RunningEmulator;
  let server: Server;
  let graph: GraphClient;
  let base: string;

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
    const port = (server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
    emulator = await startEmulator({
      seed: 'test',
      clients: [
        {
          clientId: '987654321098765',
          clientSecret: 'separate-provider-secret',
          redirectUri: `${base}/auth/callback`,
          name: 'Pagelight',
        },
      ],
    });
    const config = loadConfig({
      FB_APP_ID: '987654321098765',
      FB_APP_SECRET: 'separate-provider-secret',
      FB_AUTH_URL: emulator.url,
      FB_GRAPH_URL: emulator.url,
      FB_API_VERSION: 'v25.0',
      BASE_URL: base,
      SESSION_SECRET: 'a-session-secret-of-enough-length-123',
      PORT: String(port),
    });
    const logger = createLogger({ level: 'info', destination: new LogCapture() });
    graph = graphClientFor(config, logger, { timeoutMs: 2000 });
    server.on(
      'request',
      createApp(buildContext(config, { graph, sessions: createMemorySessionStore(config), logger })),
    );
  });
  afterAll(async () => {
    graph.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await emulator.close();
  });

  it('when a person goes from Connect page to the feed over real HTTP, then every step answers as in demo mode', async () => {
    const browser = new CookieClient(base);
    const home = await browser.get('/');
    expect(home.status).toBe(200);
    const start = await browser.get('/auth/login');
    expect(start.status).toBe(303);
    const dialog = start.headers.get('location')!;
    expect(dialog.startsWith(`${emulator.url}/v25.0/dialog/oauth?`)).toBe(true);
    const callback = await completeDialog(dialog);
    expect(callback.origin).toBe(base);
    const done = await browser.get(`${callback.pathname}${callback.search}`);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/pages');
    const picker = await browser.get('/pages');
    const html = await picker.text();
    const csrf = csrfToken(html)!;
    const connect = await browser.post(`/pages/${SEED_IDS.pages.bakery}/connect`, { _csrf: csrf });
    expect(connect.status).toBe(303);
    const page = await browser.get(`/pages/${SEED_IDS.pages.bakery}`);
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain('Lovelace Analytical Bakery');
    expect(postIds(body)).toHaveLength(25);
    expect(emulator.controls.calls({ path: '/v25.0/oauth/access_token' })).toBeGreaterThanOrEqual(1);
  });
});
