import { SEED_IDS } from '@pagelight/graph-emulator';
import { signOutUser } from '../../src/session/sign-out';
import { CookieClient } from '../support/cookie-client';
import { openStream } from '../support/sse';
import { realLogin } from '../support/login';
import { signedRequest } from '../support/signed-request';
import { APP_SECRET, LIVE_ENV, useServedStack } from '../support/stack';

const ADA = SEED_IDS.users.ada;
const BAKERY = SEED_IDS.pages.bakery;

/** A served stack whose pages are live (subscribed at connect), with heartbeats every `heartbeatSec`. */
const useLiveStack = (heartbeatSec: string) =>
  useServedStack({ env: { ...LIVE_ENV, LIVE_HEARTBEAT_SECONDS: heartbeatSec } });

/** A person the provider signs out stops hearing of their Page's changes (docs/architecture.md#live-updates). */
describe('live streams when the provider signs a person out', () => {
  // Long heartbeats: a stream that ends did not wait for one.
  const served = useLiveStack('3600');
  const open: { close(): void }[] = [];
  afterEach(() => open.splice(0).forEach((s) => s.close()));

  const signedIn = async () => {
    const person = new CookieClient(served.url);
    expect((await realLogin(served.url, ADA, BAKERY, person)).ok).toBe(true);
    return person;
  };

  it('when the deauthorize callback arrives, then every open stream of that person ends at once, in each of their sessions', async () => {
    const [tab1, tab2] = await Promise.all([signedIn(), signedIn()]);
    const streams = await Promise.all(
      [tab1, tab2].map((p) => openStream(served.url, `/pages/${BAKERY}/events`, p.cookieHeader())),
    );
    open.push(...streams);
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const res = await fetch(`${served.url}/auth/deauthorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ signed_request: signedRequest(APP_SECRET, { user_id: ADA }) }).toString(),
    });
    expect(res.status).toBe(200);
    await Promise.all(streams.map((s) => s.ended));
  });
});

describe('live streams when another instance signed the person out', () => {
  const served = useLiveStack('1');

  it('when the session is signed out in the shared store (not on this instance), then the stream ends at its next heartbeat', async () => {
    const person = new CookieClient(served.url);
    expect((await realLogin(served.url, ADA, BAKERY, person)).ok).toBe(true);
    const stream = await openStream(served.url, `/pages/${BAKERY}/events`, person.cookieHeader());
    try {
      expect(stream.status).toBe(200);
      // What the deauthorize callback did on another instance: the session stays, signed out.
      const outcome = await signOutUser(served.stack.sessions, ADA, Date.now());
      expect(outcome.sessions).toBe(1);
      await stream.ended;
    } finally {
      stream.close();
    }
  });
});
