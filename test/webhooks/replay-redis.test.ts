import { createHmac, randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { loadConfig, type Config } from '../../src/config';
import { REPLAY_WINDOW_MS } from '../../src/webhooks/routes';
import { APP_SECRET, startInstance, type Instance } from '../support/stack';
import { describeWithRedis } from '../support/redis';

/**
 * With the page cache in Redis, a delivery is handled once whichever instance it reaches and however often the
 * provider sends it (docs/architecture.md#live-updates).
 */
const REDIS_URL = process.env.REDIS_URL;
const describeRedis = describeWithRedis();

const PREFIX = `pagelight-test:${process.pid}-${randomBytes(4).toString('hex')}:`;
const VERIFY_TOKEN = 'verify-token-for-tests-0001';

function configWith(env: Record<string, string>): Config {
  return loadConfig({
    FB_APP_ID: '1234567890123456',
    FB_APP_SECRET: APP_SECRET,
    // No provider call is made here.
    FB_AUTH_URL: 'http://127.0.0.1:9',
    FB_GRAPH_URL: 'http://127.0.0.1:9',
    BASE_URL: 'http://app.test',
    SESSION_SECRET: 'test-session-secret-0123456789abcdef',
    FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN,
    SESSION_STORE: 'redis',
    PAGE_CACHE_STORE: 'redis',
    REDIS_URL: REDIS_URL!,
    REDIS_KEY_PREFIX: PREFIX,
    ...env,
  });
}

/** Resolves once `found` holds, checking after each turn of the event loop's timers (no time bound of its own). */
async function until(found: () => boolean): Promise<void> {
  while (!found()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const handled = (i: Instance) => i.logs.lines.filter((l) => l.includes('"msg":"webhook delivery"')).length;
const repeated = (i: Instance) => i.logs.lines.filter((l) => l.includes('webhook delivery repeated')).length;

describeRedis('POST /webhooks/facebook on two instances sharing Redis', () => {
  let admin: ReturnType<typeof createClient>;
  const instances: Instance[] = [];
  beforeAll(async () => {
    admin = createClient({ url: REDIS_URL! });
    admin.on('error', () => undefined);
    await admin.connect();
    const config = configWith({});
    instances.push(await startInstance(config), await startInstance(config));
  });
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.close()));
    const left: string[] = [];
    for await (const batch of admin.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 1000 })) left.push(...batch);
    if (left.length) await admin.del(left);
    await admin.close();
  });

  const send = (instance: Instance, raw: string) =>
    fetch(`${instance.url}/webhooks/facebook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${createHmac('sha256', APP_SECRET).update(raw).digest('hex')}`,
      },
      body: raw,
    });

  it('when the same signed delivery reaches both instances, then both answer 200 and it is handled once in all', async () => {
    const [a, b] = instances as [Instance, Instance];
    const raw = JSON.stringify({
      object: 'page',
      entry: [{ id: '999999999999', changes: [{ field: 'feed', value: { item: 'status', verb: 'edited' } }] }],
    });
    expect((await send(a, raw)).status).toBe(200);
    await until(() => handled(a) === 1);
    expect((await send(b, raw)).status).toBe(200);
    expect((await send(a, raw)).status).toBe(200);
    // Three deliveries judged, each handled or found repeated.
    await until(() => handled(a) + handled(b) + repeated(a) + repeated(b) === 3);
    expect(handled(a) + handled(b)).toBe(1);

    // Remembered under the app's prefix, for the replay window only.
    const keys: string[] = [];
    for await (const batch of admin.scanIterator({ MATCH: `${PREFIX}webhook:*`, COUNT: 1000 })) keys.push(...batch);
    expect(keys).toHaveLength(1);
    const ttl = await admin.pTTL(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(REPLAY_WINDOW_MS);
  });
});
