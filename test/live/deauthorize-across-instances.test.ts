import { SEED_IDS } from '@pagelight/graph-emulator';
import { useRedisInstances } from '../support/instances';
import { connectedClient } from '../support/login';
import { describeWithRedis } from '../support/redis';
import { signedRequest } from '../support/signed-request';
import { openStream } from '../support/sse';
import { APP_SECRET } from '../support/stack';

const ADA = SEED_IDS.users.ada;
const BAKERY = SEED_IDS.pages.bakery;

/**
 * The provider's deauthorize callback reaches one instance; the person's live streams end on every instance at
 * once, through the event bus they share, not at each stream's next heartbeat (docs/architecture.md#live-updates).
 */
describeWithRedis()('live streams when another instance hears of the removal', () => {
  const { open, start } = useRedisInstances({
    FB_WEBHOOK_VERIFY_TOKEN: 'verify-token-for-tests-0001',
    FB_SCOPES: 'pages_show_list pages_read_engagement pages_manage_metadata',
    // An hour between heartbeats: a stream that ends did not wait for one.
    LIVE_HEARTBEAT_SECONDS: '3600',
  });

  it('when the deauthorize callback arrives at instance A, then the person’s stream open on instance B ends at once', async () => {
    const [a, b] = [await start(), await start()];
    const person = await connectedClient(b.url, BAKERY, ADA);
    const stream = await openStream(b.url, `/pages/${BAKERY}/events`, person.cookieHeader());
    open.push(stream);
    expect(stream.status).toBe(200);
    const res = await fetch(`${a.url}/auth/deauthorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ signed_request: signedRequest(APP_SECRET, { user_id: ADA }) }).toString(),
    });
    expect(res.status).toBe(200);
    const outcome = await Promise.race([
      stream.ended.then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 5_000)),
    ]);
    expect(outcome).toBe('ended');
  });

  it('when another person is removed, then this person’s stream on B stays open', async () => {
    const [a, b] = [await start(), await start()];
    const person = await connectedClient(b.url, BAKERY, ADA);
    const stream = await openStream(b.url, `/pages/${BAKERY}/events`, person.cookieHeader());
    open.push(stream);
    const res = await fetch(`${a.url}/auth/deauthorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        signed_request: signedRequest(APP_SECRET, { user_id: SEED_IDS.users.grace }),
      }).toString(),
    });
    expect(res.status).toBe(200);
    // The channel keeps its order: an event published after the removal arrives after it, to a stream still open.
    a.ctx.events.publish(BAKERY, { kind: 'new-posts', count: 1 });
    await stream.received('event: new-posts');
    expect(b.ctx.streams.size).toBe(1);
  });
});
