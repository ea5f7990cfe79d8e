import { randomBytes } from 'node:crypto';
import { SEED_IDS, type RunningEmulator } from '@pagelight/graph-emulator';
import { formTo, type Form } from '../support/dom';
import { configFor, startSharedEmulator } from '../support/instances';
import { connectedClient } from '../support/login';
import { describeWithRedis, keysUnder, REDIS_URL, redisClient } from '../support/redis';
import { openStream, type EventStream } from '../support/sse';
import { startInstance, type Instance } from '../support/stack';
import type { CookieClient } from '../support/cookie-client';

const ADA = SEED_IDS.users.ada;
const BAKERY = SEED_IDS.pages.bakery;

/**
 * Publishing behind a load balancer (docs/architecture.md#publishing): the form's one-time key is claimed in the
 * Redis every instance shares, so the same form sent to two instances makes one post; and the tabs open on
 * another instance hear of the post through the event bus they share, naming it.
 */
describeWithRedis()('publishing across instances', () => {
  const prefix = `pagelight-test:${process.pid}-${randomBytes(4).toString('hex')}:`;
  let emulator: RunningEmulator;
  const running: Instance[] = [];
  const open: EventStream[] = [];
  beforeAll(async () => {
    emulator = await startSharedEmulator();
  });
  afterEach(async () => {
    open.splice(0).forEach((s) => s.close());
    await Promise.all(running.splice(0).map((i) => i.close()));
  });
  afterAll(async () => {
    const admin = redisClient();
    await admin.connect();
    const left = await keysUnder(admin, prefix);
    if (left.length) await admin.del(left);
    await admin.close();
    await emulator.close();
  });

  const start = async () => {
    const instance = await startInstance(
      configFor(emulator, {
        SESSION_STORE: 'redis',
        PAGE_CACHE_STORE: 'redis',
        REDIS_URL,
        REDIS_KEY_PREFIX: prefix,
        FB_WEBHOOK_VERIFY_TOKEN: 'verify-token-for-tests-0003',
        FB_SCOPES: 'pages_show_list pages_read_engagement pages_manage_metadata pages_manage_posts',
        LIVE_HEARTBEAT_SECONDS: '3600',
      }),
    );
    running.push(instance);
    return instance;
  };

  /** The composer sent as a browser sends it (multipart), to `base`. */
  const publish = (base: string, person: CookieClient, form: Form, message: string) => {
    const body = new FormData();
    body.append('_csrf', form.values._csrf!);
    body.append('_key', form.values._key!);
    body.append('message', message);
    return fetch(new URL(form.action!, base), {
      method: 'POST',
      body,
      headers: { cookie: person.cookieHeader() },
      redirect: 'manual',
    });
  };

  const publishes = () =>
    emulator.controls.log.filter((e) => e.method === 'POST' && e.path.endsWith(`/${BAKERY}/feed`)).length;

  it('when the same form goes to instance A and instance B at once, then one post is made, and a tab open on B hears of it, naming it, whichever instance made it', async () => {
    const [a, b] = [await start(), await start()];
    const person = await connectedClient(a.url, BAKERY, ADA);
    const html = await (await person.get(`/pages/${BAKERY}`)).text();
    const form = formTo(html, `/pages/${BAKERY}/publish`)!;
    const stream = await openStream(b.url, `/pages/${BAKERY}/events`, person.cookieHeader());
    open.push(stream);
    await stream.received('retry: ');
    const before = publishes();
    const [first, second] = await Promise.all([
      publish(a.url, person, form, 'Across instances, once'),
      publish(b.url, person, form, 'Across instances, once'),
    ]);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(first.headers.get('location')).toBe(second.headers.get('location'));
    expect(publishes() - before).toBe(1);
    const id = first.headers.get('location')!.split('#post-')[1]!;
    await stream.received(`"postId":"${id}"`);
  });
});
