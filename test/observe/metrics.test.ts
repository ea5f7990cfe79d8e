import { createHmac } from 'node:crypto';
import { SEED_IDS } from '@pagelight/graph-emulator';
import request from 'supertest';
import { ConfigError, loadConfig } from '../../src/config';
import { createLogger } from '../../src/log/logger';
import { Redis } from '../../src/redis';
import { signIn, signInAndConnect } from '../support/flow';
import { APP_SECRET } from '../support/stack';
import { startObservedStack, type ObservedStack } from './observed-stack';

const BAKERY = SEED_IDS.pages.bakery;
const VERIFY_TOKEN = 'verify-token-for-tests-0001';

/** One sample's value from a Prometheus text scrape; undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** docs/operations.md#metrics */
describe('GET /metrics (METRICS_PORT)', () => {
  let stack: ObservedStack;
  let text: string;
  beforeAll(async () => {
    stack = await startObservedStack({
      METRICS_PORT: '9464',
      PAGE_CACHE_TTL: '60',
      FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN,
    });
    const owner = request.agent(stack.app);
    await signInAndConnect(owner, BAKERY);
    await owner.get(`/pages/${BAKERY}`).expect(200);
    await owner.get(`/pages/${BAKERY}`).expect(200);
    await owner.get('/privacy').expect(200);
    await request(stack.app).get('/no/such/page?token=secret-looking').expect(404);
    // A login whose state is not this session's, and a cancelled one.
    await request(stack.app).get('/auth/callback?code=abc&state=not-ours').expect(403);
    await signIn(request.agent(stack.app), { action: 'cancel' });
    // Webhook deliveries: one signed, one not.
    const body = JSON.stringify({
      object: 'page',
      entry: [
        {
          id: BAKERY,
          time: 1,
          changes: [{ field: 'feed', value: { item: 'status', verb: 'add', post_id: `${BAKERY}_9` } }],
        },
      ],
    });
    const signature = `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`;
    const deliver = (sig: string) =>
      request(stack.app)
        .post('/webhooks/facebook')
        .set('content-type', 'application/json')
        .set('x-hub-signature-256', sig)
        .send(body);
    await deliver(signature).expect(200);
    await deliver('sha256=00').expect(403);
    const scrape = await request(stack.ctx.metrics!.handler).get('/metrics').expect(200);
    expect(scrape.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    text = scrape.text;
  });
  afterAll(() => stack.close());

  it('when pages were viewed, then request durations are counted by route template and status class, never by URL', () => {
    expect(
      sample(text, 'pagelight_http_request_duration_seconds_count', { route: '/pages/:pageId', status_class: '2xx' }),
    ).toBe(2);
    expect(sample(text, 'pagelight_http_request_duration_seconds_count', { route: '/privacy', method: 'GET' })).toBe(1);
    expect(
      sample(text, 'pagelight_http_request_duration_seconds_count', { route: '(no route)', status_class: '4xx' }),
    ).toBe(1);
    expect(
      sample(text, 'pagelight_http_request_duration_seconds_count', { route: '/auth/callback', status_class: '4xx' }),
    ).toBe(1);
    expect(text).not.toContain(BAKERY);
    expect(text).not.toContain('secret-looking');
  });

  it('when the provider was called, then calls are counted by kind and outcome, with a latency histogram', () => {
    for (const kind of ['code_exchange', 'accounts', 'page_token', 'page_details', 'feed'])
      expect(
        sample(text, 'pagelight_provider_calls_total', { kind, outcome: 'ok', graph_code: '' }),
      ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'pagelight_provider_call_duration_seconds_count', { kind: 'feed' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'pagelight_provider_usage_percent', { budget: 'app' })).toBeGreaterThanOrEqual(0);
  });

  it('when a page was viewed twice within the TTL, then the page cache shows hits and misses', () => {
    expect(sample(text, 'pagelight_cache_hits_total', { cache: 'page' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'pagelight_cache_misses_total', { cache: 'page' })).toBeGreaterThanOrEqual(1);
    expect(text).toContain('# TYPE pagelight_cache_stale_served_total counter');
    expect(text).toContain('# TYPE pagelight_provider_coalesced_waits_total counter');
  });

  it('when logins ended in different ways, then each outcome is counted', () => {
    expect(sample(text, 'pagelight_logins_total', { outcome: 'completed' })).toBe(1);
    expect(sample(text, 'pagelight_logins_total', { outcome: 'cancelled' })).toBe(1);
    expect(sample(text, 'pagelight_logins_total', { outcome: 'state_mismatch' })).toBe(1);
  });

  it('when webhooks were delivered, then deliveries are counted by outcome', () => {
    expect(sample(text, 'pagelight_webhook_deliveries_total', { outcome: 'accepted' })).toBe(1);
    expect(sample(text, 'pagelight_webhook_deliveries_total', { outcome: 'bad_signature' })).toBe(1);
  });

  it('then open streams, memory sessions and the process metrics are there', () => {
    expect(sample(text, 'pagelight_live_streams')).toBe(0);
    expect(sample(text, 'pagelight_memory_sessions')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('when anything but GET /metrics is asked of the metrics listener, then 404', async () => {
    await request(stack.ctx.metrics!.handler).get('/').expect(404);
    await request(stack.ctx.metrics!.handler).post('/metrics').expect(404);
  });

  it('when a page of another site is pointed at the listener (DNS rebinding), then its Host is refused and no metric is read', async () => {
    for (const host of ['evil.example', 'evil.example:9464', '127.0.0.1.evil.example', ''])
      expect((await request(stack.ctx.metrics!.handler).get('/metrics').set('Host', host).expect(421)).text).toBe(
        'misdirected request: scrape by address or METRICS_HOST\n',
      );
  });

  it('when scraped by address, localhost or METRICS_HOST, then it answers', async () => {
    for (const host of ['127.0.0.1:9464', '10.0.0.7', '[::1]:9464', 'localhost:9464'])
      await request(stack.ctx.metrics!.handler).get('/metrics').set('Host', host).expect(200);
  });
});

describe('METRICS_PORT', () => {
  it('when it equals PORT, then the configuration is refused with one line naming it', () => {
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      /^METRICS_PORT: must differ from PORT \(8080\)/,
    );
  });

  it('when it is unset, then the context has no metrics and no scrape endpoint', async () => {
    const stack = await startObservedStack({});
    try {
      expect(stack.ctx.metrics).toBeUndefined();
      await request(stack.app).get('/metrics').expect(404);
    } finally {
      await stack.close();
    }
  });
});

(process.env.REDIS_URL ? describe : describe.skip)('pagelight_redis_up (SESSION_STORE=redis)', () => {
  it('when Redis answers, then 1; once the connection is gone, then 0', async () => {
    const redisUrl = process.env.REDIS_URL!;
    const redis = await Redis.connect({ redisUrl }, createLogger({ level: 'silent' }), {
      clientName: 'pagelight-observe-test',
    });
    const env = {
      METRICS_PORT: '9464',
      SESSION_STORE: 'redis',
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: `test:observe:${Date.now()}:`,
    };
    const stack = await startObservedStack(env, undefined, redis);
    try {
      const scrape = () => request(stack.ctx.metrics!.handler).get('/metrics').expect(200);
      expect(sample((await scrape()).text, 'pagelight_redis_up')).toBe(1);
      expect(sample((await scrape()).text, 'pagelight_memory_sessions')).toBeUndefined();
      await redis.close();
      expect(sample((await scrape()).text, 'pagelight_redis_up')).toBe(0);
    } finally {
      await stack.close();
    }
  });
});

describe('pagelight_provider_calls_total when the provider refuses', () => {
  it('when a read fails with a known Graph code, then it is counted under that code; an unknown code, under "other"', async () => {
    const stack = await startObservedStack({ METRICS_PORT: '9464' });
    try {
      const owner = request.agent(stack.app);
      await signInAndConnect(owner, BAKERY);
      stack.emulator.controls.failNext(2, { status: 400, error: { code: 987654, message: 'Something new' } });
      await owner.get(`/pages/${BAKERY}`);
      stack.emulator.controls.failNext(2, {
        status: 400,
        error: { code: 4, message: '(#4) Application request limit reached' },
      });
      await owner.get(`/pages/${BAKERY}`).expect(429);
      const text = (await request(stack.ctx.metrics!.handler).get('/metrics').expect(200)).text;
      const refused = text.split('\n').filter((l) => l.startsWith('pagelight_provider_calls_total{'));
      expect(refused.some((l) => /outcome="graph_error",graph_code="4"\} [1-9]/.test(l))).toBe(true);
      expect(refused.some((l) => /outcome="graph_error",graph_code="other"\} [1-9]/.test(l))).toBe(true);
      expect(text).not.toContain('987654');
    } finally {
      await stack.close();
    }
  });
});
