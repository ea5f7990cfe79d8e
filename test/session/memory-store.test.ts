import type { SessionData } from 'express-session';
import { createMemorySessionStore } from '../../src/session/store';
import { storedCookie, storedSignIn } from '../support/stored-session';

const [cookie, signIn] = [storedCookie, storedSignIn];

/**
 * The memory store checks a session against the session schema as it is written, and a read is a plain parse
 * of its own copy (src/session/store.ts).
 */
describe('the memory store: what it keeps of a session', () => {
  const handle = createMemorySessionStore({ sessionIdleSec: 3600 });
  afterAll(() => handle.close());

  const set = (sid: string, sess: object) =>
    new Promise<void>((resolve) => handle.store.set(sid, sess as SessionData, () => resolve()));
  const get = (sid: string) =>
    new Promise<SessionData | null | undefined>((resolve) => handle.store.get(sid, (_err, sess) => resolve(sess)));
  const touch = (sid: string, sess: object) =>
    new Promise<void>((resolve) => handle.store.touch!(sid, sess as SessionData, () => resolve()));

  it('when a session is written and read back, then it reads as the session it was', async () => {
    await set('sid-round', { cookie, signIn, csrf: 'c' });
    expect(await get('sid-round')).toEqual({ cookie, signIn, csrf: 'c' });
  });

  it('when a part has the wrong shape, then it is dropped as it is written, and a value that is no session reads as none', async () => {
    await set('sid-part', { cookie, signIn: { ...signIn, pages: null }, csrf: 'c' });
    expect(await get('sid-part')).toEqual({ cookie, csrf: 'c' });
    await set('sid-none', { signIn });
    expect(await get('sid-none')).toBeUndefined();
  });

  it('when a read session is changed, then neither the store nor the next read sees the change', async () => {
    await set('sid-own', { cookie, signIn, csrf: 'c' });
    const first = await get('sid-own');
    first!.csrf = 'changed';
    first!.signIn!.pages['123']!.name = 'Changed';
    expect(await get('sid-own')).toEqual({ cookie, signIn, csrf: 'c' });
  });

  it('when a session is touched, then only its cookie changes', async () => {
    await set('sid-touched', { cookie, signIn });
    const later = { ...cookie, expires: '2026-01-02T00:00:00.000Z' };
    // The request's copy may hold changes that were not saved: a touch does not write them.
    await touch('sid-touched', { cookie: later, signIn: { ...signIn, pages: {} } });
    expect(await get('sid-touched')).toEqual({ cookie: later, signIn });
  });
});
