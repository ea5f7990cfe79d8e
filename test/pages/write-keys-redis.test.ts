import { randomBytes } from 'node:crypto';
import { MODERATION_IDS, SEED_IDS, type RunningEmulator } from '@pagelight/graph-emulator';
import { loadConfig } from '../../src/config';
import { writeForm } from '../support/write-forms';
import { startSharedEmulator } from '../support/instances';
import { connectedClient } from '../support/login';
import { describeWithRedis, REDIS_URL, redisClient, type RedisClient } from '../support/redis';
import { appEnv, startInstance, type Instance } from '../support/stack';

/**
 * One write per intent across instances (docs/architecture.md#writes): the form's one-time key is claimed in
 * Redis, so the same form sent to two instances at once — a double click behind a load balancer, a second tab —
 * makes one provider write, and both answers lead to it.
 */
const describeRedis = describeWithRedis();
const BAKERY = SEED_IDS.pages.bakery;
const { postId: POST } = MODERATION_IDS.test;
const PREFIX = `pagelight-test:${process.pid}-${randomBytes(4).toString('hex')}:`;

describeRedis('the repeat key on two instances sharing Redis', () => {
  let emulator: RunningEmulator;
  let admin: RedisClient;
  const instances: Instance[] = [];

  beforeAll(async () => {
    emulator = await startSharedEmulator();
    admin = redisClient();
    await admin.connect();
    const config = loadConfig({
      ...appEnv(emulator.url),
      FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content pages_manage_engagement',
      PROVIDER_TIMEOUT_MS: '4000',
      SESSION_STORE: 'redis',
      PAGE_CACHE_STORE: 'redis',
      REDIS_URL,
      REDIS_KEY_PREFIX: PREFIX,
    });
    instances.push(await startInstance(config), await startInstance(config));
  });
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.close()));
    await emulator?.close();
    const left: string[] = [];
    for await (const batch of admin.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 1000 })) left.push(...batch);
    if (left.length) await admin.del(left);
    await admin.close();
  });

  it('when the same reply form is sent to both instances at once, and again later, then the provider gets one write and every answer leads to that reply', async () => {
    const [a, b] = instances as [Instance, Instance];
    const browser = await connectedClient(a.url, BAKERY, SEED_IDS.users.ada);
    const html = await (await browser.get(`/pages/${BAKERY}/posts/${POST}`)).text();
    const form = writeForm(html, 'reply', POST);
    const body = { ...form.values, message: 'One reply, two instances' };
    const writes = () =>
      emulator.controls.log.filter((e) => e.method === 'POST' && e.path.endsWith(`${POST}/comments`)).length;
    const before = writes();
    const answers = await Promise.all([
      browser.post(`${a.url}${form.action}`, body),
      browser.post(`${b.url}${form.action}`, body),
    ]);
    const later = await browser.post(`${b.url}${form.action}`, body);
    expect(writes() - before).toBe(1);
    const where = [...answers, later].map((r) => [r.status, r.headers.get('location')]);
    expect(new Set(where.map((w) => JSON.stringify(w))).size).toBe(1);
    expect(where[0]![0]).toBe(303);
    expect(where[0]![1]).toMatch(/#comment-\d+_\d+$/);
  });
});
