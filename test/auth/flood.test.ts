import request from 'supertest';
import type { SessionData } from 'express-session';
import { createApp } from '../../src/app';
import { buildContext } from '../../src/context';
import { graphClientFor } from '../../src/graph/client';
import { createLogger } from '../../src/log/logger';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { createMemorySessionStore, type SessionStoreHandle } from '../../src/session/store';
import { signInAndConnect } from '../support/flow';
import { LogCapture, useStack } from '../support/stack';
import { configFor, useSharedEmulator } from '../support/instances';

const BAKERY = SEED_IDS.pages.bakery;

function lengthOf(handle: SessionStoreHandle): Promise<number> {
  return new Promise((resolve, reject) => handle.store.length!((err, n) => (err ? reject(err) : resolve(n ?? 0))));
}

function allOf(handle: SessionStoreHandle): Promise<SessionData[]> {
  return new Promise((resolve, reject) =>
    handle.store.all!((err, all) =>
      err ? reject(err) : resolve(Object.values((all ?? {}) as Record<string, SessionData>)),
    ),
  );
}

/** Seconds until the session cookie expires, from its Expires attribute. */
function secondsLeft(setCookie: unknown): number {
  const expires = /Expires=([^;]+)/i.exec(String(setCookie))?.[1];
  return expires ? (Date.parse(expires) - Date.now()) / 1000 : NaN;
}

describe('anonymous requests and the session store', () => {
  const stack = useStack();
  afterEach(
    () =>
      new Promise<void>((resolve) => {
        stack.sessions.store.clear!(() => resolve());
      }),
  );

  it.each([
    ['a bare callback', '/auth/callback'],
    ['a callback with an unknown state', '/auth/callback?code=abc&state=nope'],
    ['a callback with a provider error', '/auth/callback?error=access_denied&error_reason=user_denied&state=nope'],
    ['a callback with another provider error', '/auth/callback?error=server_error&state=nope'],
    ['a 404', '/no/such/page'],
    ['the home page', '/'],
  ])('when %s comes without a session, then nothing is stored and no cookie is set', async (_name, path) => {
    const res = await request(stack.app).get(path);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await lengthOf(stack.sessions)).toBe(0);
  });

  it('when a login starts, then the pending session and its cookie live at most 10 minutes; once the login completes, the normal idle lifetime', async () => {
    const agent = request.agent(stack.app);
    const start = await agent.get('/auth/login').expect(303);
    const maxAge = secondsLeft(start.headers['set-cookie']);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(600);
    const [pending] = await allOf(stack.sessions);
    expect(new Date(pending!.cookie.expires!).getTime() - Date.now()).toBeLessThanOrEqual(600_000);

    await signInAndConnect(agent, BAKERY);
    const after = await agent.get('/').expect(200);
    const idle = secondsLeft(after.headers['set-cookie']);
    expect(idle).toBeGreaterThan(600);
    expect(idle).toBeLessThanOrEqual(stack.config.sessionIdleSec);
  });
});

describe('the memory store under a flood of login starts', () => {
  const emulator = useSharedEmulator();

  it('when anonymous login starts outnumber both bounds, then a logged-in idle session still works and pending sessions stay within their own bound', async () => {
    const config = configFor(emulator);
    const logger = createLogger({ level: 'silent', destination: new LogCapture() });
    const sessions = createMemorySessionStore(config, 5, 20);
    const graph = graphClientFor(config, logger);
    const app = createApp(buildContext(config, { graph, sessions, logger }));
    try {
      const person = request.agent(app);
      await signInAndConnect(person, BAKERY);
      for (let i = 0; i < 200; i++) await request(app).get('/auth/login').expect(303);
      await person.get(`/pages/${BAKERY}`).expect(200);
      expect(await lengthOf(sessions)).toBeLessThanOrEqual(1 + 20);
    } finally {
      graph.close();
      await sessions.close();
    }
  });
});
