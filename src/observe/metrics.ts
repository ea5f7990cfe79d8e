import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AccountsCache } from '../cache/accounts';
import type { PageCacheStore } from '../cache/page-cache';
import type { ProviderCall } from '../graph/calls';
import type { GraphClient } from '../graph/client';
import { classifyGraphCode } from '../graph/errors';
import type { StreamRegistry } from '../live/streams';
import type { Redis } from '../redis';
import type { SessionStoreHandle } from '../session/store';
import type { LoginOutcome, Observer, RequestDone, WebhookOutcome, WriteDone } from './observer';
import { withoutQuery } from '../web-url';

/** What the metrics read when scraped: counters the parts keep anyway, sizes, the Redis client's state. */
export interface MetricSources {
  graph: GraphClient;
  pageCache: PageCacheStore;
  accounts: AccountsCache;
  streams: StreamRegistry;
  sessions: SessionStoreHandle;
  redis?: Redis | undefined;
}

export interface Metrics {
  registry: Registry;
  observer: Observer;
  /** Serves GET /metrics in the Prometheus text format (src/server.ts listens on METRICS_HOST:METRICS_PORT). */
  handler: RequestListener;
}

/** Seconds: most pages answer in milliseconds; a provider near its timeout takes seconds. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The app's Prometheus metrics, in a registry of their own (docs/operations.md#metrics). Labels come from
 * bounded sets only: route templates, status classes, call kinds, outcome words, known Graph error codes. What
 * the parts count anyway (cache hits, open streams, usage readings) is read when scraped, not on every request.
 */
export function createMetrics(sources: MetricSources, host: string): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const { graph, pageCache, accounts, streams, sessions, redis } = sources;

  // The events' counters and timings: each in this registry, timings in SECONDS.
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name, help, labelNames, registers: [registry] });
  const timing = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Histogram<L>({ name, help, labelNames, buckets: SECONDS, registers: [registry] });

  const requests = timing(
    'pagelight_http_request_duration_seconds',
    'Requests answered, by route template, method and status class',
    ['route', 'method', 'status_class'],
  );
  const calls = counter(
    'pagelight_provider_calls_total',
    'Provider call attempts, by kind, outcome and Graph error code ("" without one)',
    ['kind', 'outcome', 'graph_code'],
  );
  const callSeconds = timing('pagelight_provider_call_duration_seconds', 'Provider call attempts, by kind', ['kind']);
  const logins = counter('pagelight_logins_total', "Logins' callbacks, by outcome", ['outcome']);
  const writes = counter(
    'pagelight_page_writes_total',
    "The Page's writes (replies, likes, hiding, deleting), by action and outcome",
    ['action', 'outcome'],
  );
  const webhooks = counter('pagelight_webhook_deliveries_total', 'Webhook deliveries, by outcome', ['outcome']);

  new Gauge({
    name: 'pagelight_provider_usage_percent',
    help: 'The latest usage the provider reported in its usage headers: its app budget, and the highest page budget',
    labelNames: ['budget'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const { app, page } = graph.usage();
      if (app !== undefined) this.set({ budget: 'app' }, app);
      if (page !== undefined) this.set({ budget: 'page' }, page);
    },
  });
  countedAtScrape(registry, 'pagelight_cache_hits_total', 'Answers served from a cache', () => [
    [{ cache: 'page' }, pageCache.hits],
    [{ cache: 'accounts' }, accounts.hits],
  ]);
  countedAtScrape(registry, 'pagelight_cache_misses_total', 'Answers a cache had to load', () => [
    [{ cache: 'page' }, pageCache.misses],
    [{ cache: 'accounts' }, accounts.misses],
  ]);
  countedAtScrape(
    registry,
    'pagelight_cache_stale_served_total',
    'Stale page answers served while a refresh ran',
    () => [[{ cache: 'page' }, staleServed(pageCache)]],
  );
  countedAtScrape(
    registry,
    'pagelight_provider_coalesced_waits_total',
    'Reads that joined an identical provider read under way instead of calling',
    () => [[{}, graph.inflight.joined]],
  );
  new Gauge({
    name: 'pagelight_live_streams',
    help: 'Live-update streams open',
    registers: [registry],
    collect() {
      this.set(streams.size);
    },
  });
  if (sessions.kind === 'memory')
    new Gauge({
      name: 'pagelight_memory_sessions',
      help: 'Sessions held by the memory store',
      registers: [registry],
      async collect() {
        this.set(await sessionCount(sessions));
      },
    });
  if (redis)
    new Gauge({
      name: 'pagelight_redis_up',
      help: '1 while Redis answers the app client, else 0',
      registers: [registry],
      collect() {
        this.set(redis.healthy() ? 1 : 0);
      },
    });

  // One labelled child per route, method and status class, looked up by a string: prom-client hashes a label
  // object on every observe otherwise, the largest part of what metrics cost a warm view (docs/performance.md).
  const requestSeries = new Map<string, { observe(seconds: number): void }>();
  const observer: Observer = {
    request: (done: RequestDone) => {
      const statusClass = `${Math.floor(done.status / 100)}xx`;
      const key = `${done.route} ${done.method} ${statusClass}`;
      let series = requestSeries.get(key);
      if (series === undefined) {
        series = requests.labels({ route: done.route, method: done.method, status_class: statusClass });
        requestSeries.set(key, series);
      }
      series.observe(done.seconds);
    },
    providerCall: (call: ProviderCall) => {
      calls.inc({ kind: call.kind, outcome: call.outcome, graph_code: codeLabel(call.graphCode) });
      callSeconds.observe({ kind: call.kind }, call.seconds);
    },
    login: (outcome: LoginOutcome) => logins.inc({ outcome }),
    webhook: (outcome: WebhookOutcome) => webhooks.inc({ outcome }),
    write: (done: WriteDone) => writes.inc({ action: done.action, outcome: done.outcome }),
  };
  return { registry, observer, handler: metricsHandler(registry, host) };
}

/** A counter whose values a part already keeps: read at scrape time. */
function countedAtScrape(
  registry: Registry,
  name: string,
  help: string,
  read: () => [Record<string, string>, number][],
): void {
  new Counter({
    name,
    help,
    labelNames: ['cache'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) if (value > 0) this.inc(labels, value);
    },
  });
}

/** Codes the project knows by name keep their number; any other is `other`, so a provider cannot grow the series. */
function codeLabel(code: number | undefined): string {
  if (code === undefined) return '';
  return classifyGraphCode(code) === 'other' ? 'other' : String(code);
}

function staleServed(cache: PageCacheStore): number {
  const value = (cache as { staleServed?: unknown }).staleServed;
  return typeof value === 'number' ? value : 0;
}

function sessionCount(sessions: SessionStoreHandle): Promise<number> {
  return new Promise((resolve) => {
    if (!sessions.store.length) return resolve(0);
    sessions.store.length((err: unknown, length?: number) => resolve(err ? 0 : (length ?? 0)));
  });
}

/**
 * A scrape names the listener by address, `localhost` or METRICS_HOST: a page of another site whose name was
 * rebound to this address (DNS rebinding) sends its own name, and reads nothing (docs/operations.md#metrics).
 */
function scrapedByName(req: IncomingMessage, host: string): boolean {
  const given = (req.headers.host ?? '').toLowerCase();
  const name = given.startsWith('[') ? given.slice(1, given.indexOf(']')) : given.replace(/:\d*$/, '');
  return isIP(name) !== 0 || name === 'localhost' || name === host.toLowerCase();
}

function metricsHandler(registry: Registry, host: string): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!scrapedByName(req, host)) {
      res
        .writeHead(421, { 'Content-Type': 'text/plain' })
        .end('misdirected request: scrape by address or METRICS_HOST\n');
      return;
    }
    const path = withoutQuery(req.url ?? '');
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(req.method === 'HEAD' ? '' : text),
      () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics could not be collected\n'),
    );
  };
}
