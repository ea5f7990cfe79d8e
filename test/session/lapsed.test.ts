import { sign } from 'cookie-signature';
import request from 'supertest';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { buildContext } from '../../src/context';
import { createLogger } from '../../src/log/logger';
import { SESSIONS_SINCE_KEY } from '../../src/session/lapse';
import { sessionCookieName } from '../../src/session/middleware';
import { createMemorySessionStore } from '../../src/session/store';
import { connectedAgent } from '../support/flow';
import { appEnv, useStack, type Stack } from '../support/stack';
import { headline, visibleText } from '../support/words';

const BAKERY = SEED_IDS.pages.bakery;

/** Empties the store's sessions, as a Redis that lost its data or a restarted process would. */
const emptySessions = (stack: Stack) => new Promise<void>((resolve) => stack.sessions.store.clear!(() => resolve()));

/**
 * A session cookie whose session the store no longer has is said in words that fit why
 * (docs/operations.md#when-the-store-loses-sessions).
 */
describe('a session the store no longer has', () => {
  const stack = useStack({}, { perTest: true });

  it('when the store lost its sessions (emptied or restarted), then the page says so and does not say the person was away', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    await emptySessions(stack);
    const res = await agent.get(`/pages/${BAKERY}`).expect(401);
    expect(headline(res.text)).toBe('Pagelight lost your sign-in — connect again');
    expect(visibleText(res.text)).toContain("This isn't anything you did");
    expect(visibleText(res.text)).not.toContain('away for a while');
  });

  it('when the store has held its sessions for longer than SESSION_IDLE_SECONDS, then the lapse is the person being away', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const longAgo = Date.now() - (stack.config.sessionIdleSec + 60) * 1000;
    await stack.sessions.records.put(SESSIONS_SINCE_KEY, String(longAgo), 3600);
    await emptySessions(stack);
    const res = await agent.get(`/pages/${BAKERY}`).expect(401);
    expect(headline(res.text)).toBe('Your session timed out — connect again');
    expect(visibleText(res.text)).toContain('You were away for a while');
  });
});

describe('home while the session store is down', () => {
  it('when a signed-in person opens / while the store cannot answer, then home says it cannot tell, not just signed out', async () => {
    const config = loadConfig({ ...appEnv('http://127.0.0.1:9'), SESSION_STORE: 'memory' });
    const sessions = { ...createMemorySessionStore(config), healthy: () => false };
    const app = createApp(buildContext(config, { sessions, logger: createLogger({ level: 'silent' }) }));
    // A cookie this app signed: one it did not sign names no session, signed in or not.
    const cookie = `${sessionCookieName(config)}=${encodeURIComponent(`s:${sign('some-session', config.sessionSecrets[0]!)}`)}`;
    const res = await request(app).get('/').set('Cookie', cookie).expect(200);
    expect(visibleText(res.text)).toContain(
      "Pagelight can't check your sign-in right now: its session store isn't answering. You haven't been signed out; try again in a minute.",
    );
    const fresh = await request(app).get('/').expect(200);
    expect(visibleText(fresh.text)).not.toContain("can't check your sign-in");
    const forged = await request(app).get('/').set('Cookie', 'pagelight=s:some-session.signature').expect(200);
    expect(visibleText(forged.text)).not.toContain("can't check your sign-in");
  });
});
