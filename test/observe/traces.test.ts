import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SEED_IDS, startEmulator, type RunningEmulator } from '@pagelight/graph-emulator';
import { createClient } from 'redis';
import { CookieClient } from '../support/cookie-client';
import { credentialsSeenBy, leakedLines } from '../support/log-scrape';
import { realLogin } from '../support/login';
import { APP_SECRET } from '../support/stack';
import { freePort } from '../support/processes';

const BAKERY = SEED_IDS.pages.bakery;
const APP_ID = '1234567890123456';
const ROOT = path.resolve(__dirname, '..', '..');
const REDIS_URL = process.env.REDIS_URL;

interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** An OTLP/HTTP (JSON) collector on loopback: keeps every body posted to /v1/traces. */
async function startReceiver(): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, server };
}

function spansOf(bodies: string[]): OtlpSpan[] {
  return bodies.flatMap((body) =>
    (JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans),
    ),
  );
}

function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
}

/**
 * The app as its own process (the OTLP exporter loads node:http with a dynamic import, which jest's module
 * system cannot run), with Redis sessions when REDIS_URL is set, its spans sent to a receiver in this test.
 * docs/operations.md#traces
 */
describe('traces (OTEL_EXPORTER_OTLP_ENDPOINT), against a running app', () => {
  const prefix = `test:observe:${randomBytes(6).toString('hex')}:`;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let emulator: RunningEmulator;
  let app: ChildProcess;
  let spans: OtlpSpan[];
  let output = '';
  let browser: CookieClient;
  let refused: Response;
  beforeAll(async () => {
    receiver = await startReceiver();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    emulator = await startEmulator({
      clients: [
        { clientId: APP_ID, clientSecret: APP_SECRET, redirectUri: `${base}/auth/callback`, name: 'Pagelight test' },
      ],
      seed: 'test',
    });
    app = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        BASE_URL: base,
        FB_APP_ID: APP_ID,
        FB_APP_SECRET: APP_SECRET,
        FB_AUTH_URL: emulator.url,
        FB_GRAPH_URL: emulator.url,
        FB_IMAGE_ORIGINS: emulator.url,
        SESSION_SECRET: 'test-session-secret-0123456789abcdef',
        // Sessions in Redis when this run has one (its commands are spans too), else in memory.
        ...(REDIS_URL ? { SESSION_STORE: 'redis', REDIS_URL, REDIS_KEY_PREFIX: prefix } : {}),
        LOGIN_RATE_LIMIT: '0',
        // Every view asks the provider, so the refused one below reaches it.
        PAGE_CACHE_TTL: '0',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    app.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    app.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    await new Promise<void>((resolve, reject) => {
      const check = () => (output.includes('Pagelight is listening') ? resolve() : undefined);
      app.stdout!.on('data', check);
      app.once('exit', () => reject(new Error(`the app stopped:\n${output}`)));
    });
    browser = new CookieClient(base);
    const outcome = await realLogin(base, undefined, BAKERY, browser);
    expect(outcome).toMatchObject({ ok: true });
    // One more view that the provider refuses: its calls' spans carry the Graph code.
    emulator.controls.failNext(2, { status: 400, error: { code: 100, message: 'Invalid parameter' } });
    refused = await browser.get(`/pages/${BAKERY}`);
    await refused.text();
    // SIGTERM: the app finishes, sends the spans still buffered, and exits.
    const exited = new Promise<number | null>((resolve) => app.once('exit', resolve));
    app.kill('SIGTERM');
    expect(await exited).toBe(0);
    spans = spansOf(receiver.bodies);
  });
  afterAll(async () => {
    if (app.exitCode === null) app.kill('SIGKILL');
    await emulator.close();
    await new Promise((resolve) => receiver.server.close(resolve));
    if (!REDIS_URL) return;
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 }))
      if (keys.length > 0) await redis.del(keys);
    await redis.quit();
  });

  it('when a page is viewed, then its request span is named by the route template', () => {
    const views = spans.filter((s) => s.name === 'GET /pages/:pageId');
    expect(views.map((s) => attribute(s, 'http.response.status_code'))).toEqual([200, refused.status]);
    expect(views.every((s) => attribute(s, 'http.route') === '/pages/:pageId')).toBe(true);
  });

  it('when the provider is called for the view, then each call is a child span with its path template, method and status', () => {
    const view = spans.find(
      (s) => s.name === 'GET /pages/:pageId' && attribute(s, 'http.response.status_code') === 200,
    )!;
    const children = spans.filter((s) => s.parentSpanId === view.spanId);
    const calls = children.filter((s) => attribute(s, 'pagelight.provider.call') !== undefined);
    expect(calls.map((s) => attribute(s, 'pagelight.provider.call')).sort()).toEqual(['feed', 'page_details']);
    const feed = calls.find((s) => attribute(s, 'pagelight.provider.call') === 'feed')!;
    expect(attribute(feed, 'url.template')).toMatch(/^\/v\d+\.\d+\/\{id\}\/feed$/);
    expect(attribute(feed, 'http.request.method')).toBe('GET');
    expect(attribute(feed, 'http.response.status_code')).toBe(200);
    expect(attribute(feed, 'graph.fbtrace_id')).toMatch(/^[\w-]{4,64}$/);
    expect(spans.some((s) => attribute(s, 'pagelight.provider.call') === 'code_exchange')).toBe(true);
  });

  it('when the provider refuses a call, then its span carries the status, the Graph error code and the fbtrace_id', () => {
    const failed = spans.filter((s) => attribute(s, 'pagelight.provider.outcome') === 'graph_error');
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.every((s) => attribute(s, 'graph.error.code') === 100)).toBe(true);
    expect(failed.every((s) => attribute(s, 'http.response.status_code') === 400)).toBe(true);
    expect(failed.every((s) => typeof attribute(s, 'graph.fbtrace_id') === 'string')).toBe(true);
  });

  (REDIS_URL ? it : it.skip)(
    'when the view reads its session from Redis, then the Redis call is a child span named by its command only',
    () => {
      const view = spans.find((s) => s.name === 'GET /pages/:pageId')!;
      const redisCalls = spans.filter((s) => s.parentSpanId === view.spanId && s.name.startsWith('redis '));
      expect(redisCalls.map((s) => s.name)).toContain('redis GET');
      expect(redisCalls.every((s) => attribute(s, 'db.system.name') === 'redis')).toBe(true);
    },
  );

  it('then no span holds a token, code, secret, proof, session id, cookie or page id', () => {
    const credentials = credentialsSeenBy(emulator, APP_SECRET);
    const sid = browser.sessionId();
    expect(sid).toBeDefined();
    credentials.add(sid!);
    credentials.add(decodeURIComponent(browser.jar.get('pagelight')!));
    expect(leakedLines(receiver.bodies, credentials)).toEqual([]);
    expect(receiver.bodies.join('')).not.toContain(BAKERY);
  });
});
