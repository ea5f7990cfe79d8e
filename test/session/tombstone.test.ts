import request from 'supertest';
import type { SessionData } from 'express-session';
import { createApp } from '../../src/app';
import { buildContext } from '../../src/context';
import type { Config } from '../../src/config';
import { graphClientFor } from '../../src/graph/client';
import { createLogger } from '../../src/log/logger';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { Redis } from '../../src/redis';
import { createRedisSessionStore } from '../../src/session/redis';
import { createMemorySessionStore, type SessionStoreHandle } from '../../src/session/store';
import { csrfFrom, signInAndConnect } from '../support/flow';
import { LogCapture } from '../support/stack';
import { configFor, useSharedEmulator } from '../support/instances';
import { eventually } from '../support/wait';

const BAKERY = SEED_IDS.pages.bakery;
const REDIS_URL = process.env.REDIS_URL;

const stores: [string, (config: Config) => Promise<SessionStoreHandle> | SessionStoreHandle, Record<string, string>][] =
  [
    ['memory', (config) => createMemorySessionStore(config), {}],
    ...(REDIS_URL
      ? [
          [
            'redis',
            async (config: Config) => {
              // This store's own connection, closed with it.
              const redis = await Redis.connect(
                config,
                createLogger({ level: 'silent', destination: new LogCapture() }),
              );
              return { ...createRedisSessionStore(redis, config), close: () => redis.close() };
            },
            {
              SESSION_STORE: 'redis',
              REDIS_URL,
              REDIS_KEY_PREFIX: `pagelight:test:tomb:${process.pid}:${Date.now()}:`,
            },
          ] as (typeof stores)[number],
        ]
      : []),
  ];

describe.each(stores)('logout while a request is in flight (%s store)', (_kind, makeStore, env) => {
  const emulator = useSharedEmulator();

  it('when a slow first page view finishes after logout, then the old cookie is not connected', async () => {
    const config = configFor(emulator, env);
    const logger = createLogger({ level: 'silent', destination: new LogCapture() });
    const sessions = await makeStore(config);
    const graph = graphClientFor(config, logger, { timeoutMs: 3000 });
    const app = createApp(buildContext(config, { graph, sessions, logger }));
    try {
      const agent = request.agent(app);
      await signInAndConnect(agent, BAKERY);
      const csrf = csrfFrom((await agent.get('/').expect(200)).text);
      const cookie = String(
        agent.jar.getCookies({ domain: '127.0.0.1', path: '/', secure: false, script: false }).toValueString(),
      );
      emulator.controls.setLatency(400);
      const reads = emulator.controls.calls();
      const view = request(app)
        .get(`/pages/${BAKERY}`)
        .set('Cookie', cookie)
        .then((r) => r);
      // Log out once the view's reads have reached the provider: it is past the session check, in flight.
      await eventually(() => emulator.controls.calls() > reads);
      await request(app).post('/auth/logout').set('Cookie', cookie).type('form').send({ _csrf: csrf }).expect(303);
      expect((await view).status).toBe(200);
      emulator.controls.setLatency(0);
      await request(app).get(`/pages/${BAKERY}`).set('Cookie', cookie).expect(401);
    } finally {
      emulator.controls.reset();
      graph.close();
      await sessions.close();
    }
  });

  it('when a session id was destroyed, then a later write of it is refused', async () => {
    const config = configFor(emulator, env);
    const sessions = await makeStore(config);
    const store = sessions.store;
    const call = (fn: (cb: (err?: unknown, v?: unknown) => void) => void) =>
      new Promise<unknown>((resolve, reject) => fn((err, v) => (err ? reject(err) : resolve(v))));
    try {
      const sess = {
        cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000), path: '/' },
        csrf: 'c',
      } as unknown as SessionData;
      await call((cb) => store.set('sid-1', sess, cb));
      await call((cb) => store.destroy('sid-1', cb));
      await call((cb) => store.set('sid-1', sess, cb));
      await call((cb) => store.touch!('sid-1', sess, cb));
      expect(await call((cb) => store.get('sid-1', cb))).toBeFalsy();
    } finally {
      await sessions.close();
    }
  });
});
