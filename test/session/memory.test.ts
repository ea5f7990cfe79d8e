import request from 'supertest';
import type { SessionData } from 'express-session';
import { createApp } from '../../src/app';
import { buildContext } from '../../src/context';
import type { Config } from '../../src/config';
import { graphClientFor, type GraphClient } from '../../src/graph/client';
import { createLogger } from '../../src/log/logger';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { createMemorySessionStore, type SessionStoreHandle } from '../../src/session/store';
import { signInAndConnect, sessionCookie } from '../support/flow';
import { LogCapture } from '../support/stack';
import { configFor, useSharedEmulator } from '../support/instances';

const BAKERY = SEED_IDS.pages.bakery;
const OLD_KEY = 'old-token-encryption-key-0123456789abcdef';
const NEW_KEY = 'new-token-encryption-key-0123456789abcdef';
const DAY = 24 * 3600 * 1000;

/** Promisified access to a store, to read and rewrite what it holds as someone with access to it could. */
function storeOf(handle: SessionStoreHandle) {
  const store = handle.store;
  return {
    all: () =>
      new Promise<Record<string, SessionData>>((resolve, reject) =>
        store.all!((err, all) => (err ? reject(err) : resolve((all ?? {}) as Record<string, SessionData>))),
      ),
    get: (sid: string) =>
      new Promise<SessionData | undefined>((resolve, reject) =>
        store.get(sid, (err, s) => (err ? reject(err) : resolve(s ?? undefined))),
      ),
    set: (sid: string, s: SessionData) =>
      new Promise<void>((resolve, reject) => store.set(sid, s, (err) => (err ? reject(err) : resolve()))),
    length: () =>
      new Promise<number>((resolve, reject) => store.length!((err, n) => (err ? reject(err) : resolve(n ?? 0)))),
  };
}

describe('sessions in memory: sealing, tampering, rotation and lifetime', () => {
  const emulator = useSharedEmulator();
  const graphs: GraphClient[] = [];
  const handles: SessionStoreHandle[] = [];

  afterAll(async () => {
    for (const g of graphs) g.close();
    for (const h of handles) await h.close();
  });

  function appWith(config: Config, sessions: SessionStoreHandle, now?: () => number) {
    const logger = createLogger({ level: 'silent', destination: new LogCapture() });
    const graph = graphClientFor(config, logger, { timeoutMs: 2000 });
    graphs.push(graph);
    return createApp(buildContext(config, { graph, sessions, logger, ...(now ? { now } : {}) }));
  }

  function memory(config: Config, max?: number): SessionStoreHandle {
    const handle = createMemorySessionStore(config, max);
    handles.push(handle);
    return handle;
  }

  /** A connected person: their cookie and their one stored session. */
  async function connected(app: ReturnType<typeof appWith>, handle: SessionStoreHandle) {
    const agent = request.agent(app);
    await signInAndConnect(agent, BAKERY);
    const cookie = sessionCookie(await agent.get('/').expect(200))!;
    const entries = Object.entries(await storeOf(handle).all()).filter(([, s]) => s.signIn);
    expect(entries).toHaveLength(1);
    const [sid, session] = entries[0]!;
    return { agent, cookie, sid, session };
  }

  it('when the user or page token in the store is tampered with, then the person reads as not connected, not a 500', async () => {
    const config = configFor(emulator);
    for (const target of ['user', 'page'] as const) {
      const handle = memory(config);
      const app = appWith(config, handle);
      const { agent, sid, session } = await connected(app, handle);
      const signIn = session.signIn!;
      const flip = (sealed: string) => `${sealed.slice(0, 20)}${sealed[20] === 'A' ? 'B' : 'A'}${sealed.slice(21)}`;
      if (target === 'user') signIn.userToken = flip(signIn.userToken);
      else signIn.pages[BAKERY]!.token = flip(signIn.pages[BAKERY]!.token);
      await storeOf(handle).set(sid, session);

      const page = await agent.get(`/pages/${BAKERY}`).expect(401);
      expect(page.text).toContain('Connect page');
      expect((await agent.get('/').expect(200)).text).not.toContain('Log out');
      expect((await storeOf(handle).get(sid))?.signIn).toBeUndefined();
    }
  });

  it('when the stored sign-in has the wrong shape, then the person reads as not connected', async () => {
    const config = configFor(emulator);
    const handle = memory(config);
    const app = appWith(config, handle);
    for (const broken of [
      { userToken: 42 },
      { loggedInAt: 'yesterday' },
      { pages: null },
      { pages: { [BAKERY]: { token: 1 } } },
    ]) {
      const { agent, sid, session } = await connected(app, handle);
      await storeOf(handle).set(sid, { ...session, signIn: { ...session.signIn!, ...broken } as never });
      await agent.get(`/pages/${BAKERY}`).expect(401);
      await agent.get('/').expect(200);
      await new Promise<void>((resolve) => handle.store.destroy(sid, () => resolve()));
    }
  });

  it('when a session was stored in the previous shape (short keys), then the person reads as not connected and its pending login is refused, not a 500', async () => {
    const config = configFor(emulator);
    const handle = memory(config);
    const app = appWith(config, handle);
    const { agent, sid, session } = await connected(app, handle);
    const { signIn, ...rest } = session;
    const page = signIn!.pages[BAKERY]!;
    const oldState = 'o'.repeat(43);
    const old = {
      ...rest,
      conn: {
        user: signIn!.userToken,
        exp: signIn!.expiresAt,
        at: signIn!.loggedInAt,
        pages: { [BAKERY]: { t: page.token, n: page.name } },
      },
      pending: [{ s: oldState, v: 'v'.repeat(43), t: Date.now() }],
    };
    await storeOf(handle).set(sid, old as unknown as SessionData);

    const denied = await agent.get(`/pages/${BAKERY}`).expect(401);
    expect(denied.text).toContain('Connect page');
    expect((await agent.get('/').expect(200)).text).not.toContain('Log out');
    await agent.get(`/auth/callback?code=abc&state=${oldState}`).expect(403);
  });

  it('when a stored session value is not JSON, then it reads as no session (200, not connected)', async () => {
    const config = configFor(emulator);
    const handle = memory(config);
    const app = appWith(config, handle);
    const { agent, sid } = await connected(app, handle);
    // The store keeps each session as JSON texts in an LRU: corrupt one in place.
    const lru = (handle.store as unknown as { sessions: { set(k: string, v: { cookie: string; rest: string }): void } })
      .sessions;
    lru.set(sid, { cookie: '{}', rest: '{broken' });
    await agent.get(`/pages/${BAKERY}`).expect(401);
    await agent.get('/').expect(200);
  });

  it('when the token key is rotated (new key first, old kept), then sealed tokens still open; once the old key is dropped, the person must connect again', async () => {
    const before = configFor(emulator, { TOKEN_ENCRYPTION_KEY: OLD_KEY });
    const handle = memory(before);
    const { cookie, session } = await connected(appWith(before, handle), handle);
    expect(session.signIn!.userToken).not.toContain(OLD_KEY);

    const rotated = appWith(configFor(emulator, { TOKEN_ENCRYPTION_KEY: `${NEW_KEY},${OLD_KEY}` }), handle);
    await request(rotated).get(`/pages/${BAKERY}`).set('Cookie', cookie).expect(200);

    const retired = appWith(configFor(emulator, { TOKEN_ENCRYPTION_KEY: NEW_KEY }), handle);
    await request(retired).get(`/pages/${BAKERY}`).set('Cookie', cookie).expect(401);
  });

  it('when TOKEN_ENCRYPTION_KEY is unset, then tokens are sealed with a key derived from SESSION_SECRET and no token is stored in clear', async () => {
    const config = configFor(emulator);
    const handle = memory(config);
    const { session } = await connected(appWith(config, handle), handle);
    const raw = JSON.stringify(session);
    const tokens = emulator.controls.issuedTokens();
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(raw).not.toContain(token);
    expect(session.signIn!.userToken).toMatch(/^[\w-]{6}\.[\w-]+$/);
  });

  describe('lifetime', () => {
    let clock = Date.now();
    const now = () => clock;
    beforeEach(() => {
      clock = Date.now();
    });

    it('when the absolute lifetime has passed, then the person is not connected however active they were', async () => {
      const config = configFor(emulator, { SESSION_MAX_SECONDS: String(8 * 3600) });
      const handle = memory(config);
      const { agent } = await connected(appWith(config, handle, now), handle);
      clock += 8 * 3600 * 1000 - 60_000;
      await agent.get(`/pages/${BAKERY}`).expect(200);
      clock += 120_000;
      await agent.get(`/pages/${BAKERY}`).expect(401);
    });

    it("when the user token's own expires_in has passed, then the person is not connected even within the session's lifetime", async () => {
      const config = configFor(emulator, { SESSION_MAX_SECONDS: String(365 * 24 * 3600) });
      const handle = memory(config);
      const { agent, session } = await connected(appWith(config, handle, now), handle);
      const exp = session.signIn!.expiresAt!;
      expect(exp).toBeGreaterThan(clock);
      expect(exp).toBeLessThan(clock + 365 * DAY);
      clock = exp - 60_000;
      await agent.get(`/pages/${BAKERY}`).expect(200);
      clock = exp;
      await agent.get(`/pages/${BAKERY}`).expect(401);
    });

    it('when nobody uses the session for longer than the idle timeout, then it is gone from the store (the cookie alone does not bring it back)', async () => {
      // 3 s, not 1: the login itself must finish within the idle timeout, also on a busy machine.
      const config = configFor(emulator, { SESSION_IDLE_SECONDS: '3' });
      const handle = memory(config);
      const app = appWith(config, handle);
      const agent = request.agent(app);
      await signInAndConnect(agent, BAKERY);
      const res = await agent.get(`/pages/${BAKERY}`).expect(200);
      const setCookie = String(res.headers['set-cookie']);
      expect(setCookie).toMatch(/Max-Age=3\b|Expires=/);
      const cookie = sessionCookie(res)!;
      await new Promise((resolve) => setTimeout(resolve, 3300));
      await request(app).get(`/pages/${BAKERY}`).set('Cookie', cookie).expect(401);
    });
  });

  describe('the memory store itself', () => {
    const session = (i: number) =>
      ({
        cookie: { originalMaxAge: 1000, expires: new Date(Date.now() + 1000), httpOnly: true, path: '/' },
        csrf: `c${i}`,
      }) as unknown as SessionData;

    it('when more sessions come than its bound, then the oldest go and it never holds more than the bound', async () => {
      const handle = memory({ sessionIdleSec: 3600 } as Config, 100);
      const store = storeOf(handle);
      for (let i = 0; i < 250; i++) await store.set(`s${i}`, session(i));
      expect(await store.length()).toBe(100);
      expect(await store.get('s0')).toBeUndefined();
      expect(await store.get('s249')).toBeDefined();
    });

    it('when sessions pass their TTL, then they read as absent and a prune empties the store', async () => {
      const handle = memory({ sessionIdleSec: 1 } as Config);
      const store = storeOf(handle);
      for (let i = 0; i < 50; i++) await store.set(`s${i}`, session(i));
      expect(await store.length()).toBe(50);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await store.get('s1')).toBeUndefined();
      (handle.store as unknown as { prune(): void }).prune();
      expect(await store.length()).toBe(0);
    });
  });
});
