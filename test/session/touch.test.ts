import type { SessionData } from 'express-session';
import { createMemorySessionStore } from '../../src/session/store';
import { loadConfig } from '../../src/config';
import { appEnv } from '../support/stack';

/**
 * express-session writes a page whose session store calls back later in two parts: all but its last byte, then
 * that byte once the touch is answered (an event-loop turn later). The memory store answers at once, so the
 * page goes out in one write (docs/performance.md#post-page).
 */
describe('the memory store touching a session', () => {
  const handle = createMemorySessionStore(loadConfig(appEnv('http://127.0.0.1:1')));
  afterAll(() => handle.close());

  const signedIn = (): SessionData => ({
    cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000), httpOnly: true, path: '/' },
    csrf: 'a-csrf-token-of-this-session-000',
  });

  const set = (sid: string, sess: SessionData) =>
    new Promise<void>((resolve, reject) => handle.store.set(sid, sess, (err) => (err ? reject(err) : resolve())));
  const get = (sid: string) =>
    new Promise<SessionData | null | undefined>((resolve, reject) =>
      handle.store.get(sid, (err, sess) => (err ? reject(err) : resolve(sess))),
    );

  it('when a signed-in session is touched, then the store answers before touch returns', async () => {
    await set('sid-answered', signedIn());
    let answered = false;
    handle.store.touch!('sid-answered', signedIn(), () => (answered = true));
    expect(answered).toBe(true);
  });

  it('when a session is touched with a later expiry, then the store keeps that expiry', async () => {
    await set('sid-later', signedIn());
    const later = signedIn();
    const expires = new Date(Date.now() + 3_600_000);
    (later.cookie as unknown as { expires: Date }).expires = expires;
    await new Promise<void>((resolve) => handle.store.touch!('sid-later', later, () => resolve()));
    const stored = await get('sid-later');
    expect(new Date(String(stored?.cookie.expires)).getTime()).toBe(expires.getTime());
  });

  it('when a session is touched within its idle lifetime, then it outlives the lifetime counted from its write', async () => {
    // The lifetimes are counted on a clock the test moves, not on how long the machine takes.
    const clock = { ms: 1_000_000, now: () => clock.ms };
    const short = createMemorySessionStore({ sessionIdleSec: 1 }, undefined, undefined, clock);
    try {
      const touch = (sid: string) => new Promise<void>((resolve) => short.store.touch!(sid, signedIn(), resolve));
      const read = (sid: string) =>
        new Promise<SessionData | null | undefined>((resolve) => short.store.get(sid, (_err, sess) => resolve(sess)));
      await new Promise<void>((resolve) => short.store.set('sid-kept', signedIn(), () => resolve()));
      await new Promise<void>((resolve) => short.store.set('sid-left', signedIn(), () => resolve()));
      clock.ms += 600;
      await touch('sid-kept');
      clock.ms += 600;
      expect(await read('sid-kept')).toMatchObject({ csrf: signedIn().csrf });
      expect(await read('sid-left')).toBeUndefined();
    } finally {
      await short.close();
    }
  });
});
