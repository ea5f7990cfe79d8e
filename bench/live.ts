/**
 * The live-update scenarios of `npm run bench`: how soon an open page hears of a new post (freshness), and what
 * 1,000 open streams cost the app (streams). See docs/performance.md.
 */
import http from 'node:http';
import { DEFAULT_SCOPES, SUBSCRIBE_SCOPE } from '../src/graph/provider';
import { control } from '../test/support/emulator';
import { spawnNode, waitForOutput } from '../test/support/processes';
import { freePort } from '../test/support/processes';
import {
  BAKERY,
  WEBHOOK_VERIFY_TOKEN,
  heapProbe,
  heapUsed,
  load,
  log,
  loginSessions,
  quantile,
  rssKB,
  startApp,
  stopChild,
  type Bench,
  type Row,
} from './shared';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An open event stream on the page, as a plain HTTP client reads it; `next()` resolves at the next `new-posts` event. */
function openStream(
  appUrl: string,
  cookie: string,
): Promise<{ next(timeoutMs: number): Promise<number>; close(): void }> {
  return new Promise((resolve, reject) => {
    const waiters: ((at: number) => void)[] = [];
    let buffered = '';
    const req = http.get(
      `${appUrl}/pages/${BAKERY}/events`,
      { headers: { cookie, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`events: expected 200, got ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const at = performance.now();
          buffered += chunk;
          const blocks = buffered.split('\n\n');
          buffered = blocks.pop() ?? '';
          for (const block of blocks) if (/^event: new-posts$/m.test(block)) waiters.shift()?.(at);
        });
        resolve({
          next: (timeoutMs) =>
            new Promise<number>((done, fail) => {
              const timer = setTimeout(() => fail(new Error(`no new-posts event within ${timeoutMs} ms`)), timeoutMs);
              waiters.push((at) => {
                clearTimeout(timer);
                done(at);
              });
            }),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
  });
}

/**
 * Freshness: a post added at the emulator (its activity control) → the provider's signed webhook → the app → the
 * `new-posts` event on a stream open on the page. Timed from just before the control is called.
 */
export async function freshness(bench: Bench): Promise<Row> {
  const { latency: L, posts } = bench.opts;
  log(`freshness: ${posts} posts added at the emulator, L=${L} ms, one open stream`);
  const app = await startApp(bench, 60, 'live', {
    FB_WEBHOOK_VERIFY_TOKEN: WEBHOOK_VERIFY_TOKEN,
    FB_SCOPES: `${DEFAULT_SCOPES} ${SUBSCRIBE_SCOPE}`,
  });
  const [cookie] = await loginSessions(bench.appUrl, 1);
  const subscribed = (await control(bench.emulatorUrl, 'GET', `/webhooks/subscriptions/${BAKERY}`)) as {
    data: unknown[];
  };
  if (subscribed.data.length === 0) throw new Error('freshness: connecting the page did not subscribe it');
  const stream = await openStream(bench.appUrl, cookie!);
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: L });
  const times: number[] = [];
  let missed = 0;
  try {
    for (let i = 0; i < posts; i++) {
      const heard = stream.next(5000);
      const started = performance.now();
      await control(bench.emulatorUrl, 'POST', '/activity/posts', { pageId: BAKERY, message: `Bench post ${i + 1}` });
      try {
        times.push((await heard) - started);
      } catch {
        missed++;
      }
      await sleep(100);
    }
  } finally {
    stream.close();
    await stopChild(bench, app);
    // Drops the subscription, the added posts and any delivery still to be retried, so nothing reaches a later app.
    await control(bench.emulatorUrl, 'POST', '/reset', {});
  }
  times.sort((a, b) => a - b);
  const p50 = quantile(times, 0.5);
  // With every miss counted as slower than any heard event.
  const p99 = missed > 0 && (times.length + missed) * 0.01 < missed ? Infinity : quantile(times, 0.99);
  return {
    scenario: `freshness: post added at the emulator → "new-posts" on an open stream (L=${L} ms, ${posts} posts)`,
    p50,
    p99,
    result: `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms${missed ? `, ${missed} missed` : ''}`,
    figures: { p50, p99, posts, missed },
    target: 'p99 ≤ 1000 ms',
    pass: missed === 0 && p99 <= 1000,
  };
}

/** Streams a session may hold for the run; LIVE_STREAMS_PER_SESSION allows at most 64. */
const STREAMS_PER_SESSION = 50;

/**
 * Streams: `--streams` open event streams (from a child process, several sessions) on one app. Heap per stream:
 * the app's heap after a full collection, before and with the streams open, read from bench/heap-probe.js (loaded
 * into this app only, on its own loopback port). RSS per stream too, for reference only: it moves with the
 * allocator and the young generation by megabytes either way, and has read negative. Then the warm-view p50 with
 * them open and after they closed.
 */
export async function streams(bench: Bench): Promise<Row[]> {
  const { opts } = bench;
  const n = opts.streams;
  const sessions = Math.ceil(n / STREAMS_PER_SESSION);
  log(`streams: ${n} open event streams over ${sessions} sessions, then warm views (L=${opts.latency} ms)`);
  const probePort = await freePort();
  const probe = heapProbe(probePort);
  const app = await startApp(
    bench,
    60,
    'streams',
    {
      LIVE_STREAMS_MAX: String(n + 100),
      LIVE_STREAMS_PER_SESSION: String(STREAMS_PER_SESSION),
      // Streams may take at most half the connections (the rest stays for pages and probes).
      MAX_CONNECTIONS: String(2 * (n + 100) + opts.connections + 200),
      LIVE_STREAMS_PER_PERSON: String(n + 100),
      LIVE_STREAMS_PER_ADDRESS: String(n + 100),
      ...probe.env,
    },
    bench.appPort,
    probe.nodeArgs,
  );
  // The streams' sessions, and as many as the warm view uses elsewhere for the views.
  const cookies = await loginSessions(bench.appUrl, Math.max(sessions, opts.sessions));
  // A first load compiles the view path and commits the young generation, so neither counts against the streams.
  await load(bench.appUrl, cookies, { connections: opts.connections, duration: 2 });
  await sleep(1000);
  const heapBefore = await heapUsed(probePort);
  const before = rssKB(app);
  const client = spawnNode('streams client', 'bench/streams-client.ts', {
    inheritEnv: true,
    echoStderr: true,
    env: {
      STREAMS_URL: `${bench.appUrl}/pages/${BAKERY}/events`,
      STREAMS_COOKIES: JSON.stringify(cookies.slice(0, sessions)),
      STREAMS_COUNT: String(n),
    },
  });
  bench.children.add(client);
  let rows: Row[];
  try {
    await waitForOutput(client, /open \d+ failed \d+/, 60_000);
    const [, open, failed] = /open (\d+) failed (\d+)/.exec(client.output.join(''))!.map(Number) as [
      number,
      number,
      number,
    ];
    if (failed > 0) throw new Error(`streams: ${failed} of ${n} streams were refused`);
    await sleep(2000);
    const after = rssKB(app);
    const heapAfter = await heapUsed(probePort);
    const perStream = ((after - before) * 1024) / open;
    const heapPerStream = (heapAfter - heapBefore) / open;
    await control(bench.emulatorUrl, 'POST', '/latency', { ms: opts.latency });
    const duration = Math.max(1, Math.round(opts.duration / 2));
    const withStreams = await load(bench.appUrl, cookies, { connections: opts.connections, duration });
    await stopChild(bench, client);
    await sleep(500);
    const without = await load(bench.appUrl, cookies, { connections: opts.connections, duration });
    await control(bench.emulatorUrl, 'POST', '/latency', { ms: 0 });
    rows = [
      {
        scenario: `streams: ${open.toLocaleString('en')} open, app heap per stream`,
        rss: Math.round((after / 1024) * 10) / 10,
        result: `${(heapPerStream / 1024).toFixed(1)} KB heap/stream (${((heapAfter - heapBefore) / 1048576).toFixed(1)} MB for ${open}; RSS ${(perStream / 1024).toFixed(1)} KB/stream)`,
        figures: {
          streams: open,
          heapBytesPerStream: Math.round(heapPerStream),
          heapBeforeBytes: heapBefore,
          heapAfterBytes: heapAfter,
          rssBytesPerStream: Math.round(perStream),
          rssBeforeKB: before,
          rssAfterKB: after,
        },
        target: '≤ 20 KB heap/stream',
        pass: heapPerStream <= 20 * 1024,
      },
      {
        scenario: `streams: warm view (cache on, L=${opts.latency} ms) with ${open.toLocaleString('en')} streams open`,
        ...withStreams,
        result: `p50 ${withStreams.p50} ms with, ${without.p50} ms without`,
        figures: { p50With: withStreams.p50, p50Without: without.p50 },
        target: '—',
      },
    ];
  } finally {
    await stopChild(bench, client);
    await stopChild(bench, app);
  }
  return rows;
}
