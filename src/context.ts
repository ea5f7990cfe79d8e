import type { Store } from 'express-rate-limit';
import { IdTokenVerifier } from './auth/id-token';
import type { Config } from './config';
import { graphClientFor, type GraphClient } from './graph/client';
import { redisCounts } from './http/rate-limit';
import { LocalPageEvents, type PageEvents } from './live/bus';
import { RedisPageEvents } from './live/redis-bus';
import { StreamRegistry } from './live/streams';
import { Readiness } from './http/probes';
import { Locales } from './i18n/catalogs';
import type { Logger } from './log/logger';
import { AccountsCache } from './cache/accounts';
import { MemoryPageCache } from './cache/memory-page-cache';
import type { PageCacheStore } from './cache/page-cache';
import { PROVIDER_ANSWERS, RedisPageCache } from './cache/redis-page-cache';
import type { Metrics } from './observe/metrics';
import { together, type Observer } from './observe/observer';
import type { Tracing } from './observe/tracing';
import { ConcurrentReadLimit, SessionRateLimit } from './pages/fairness';
import type { Redis, SharedRedis } from './redis';
import { SignIns } from './session/sign-in';
import { createRedisSessionStore } from './session/redis';
import { TokenSealer } from './session/sealer';
import { createMemorySessionStore, type SessionStoreHandle } from './session/store';
import type { Closer } from './shutdown';
import { MemoryWriteKeys, RedisWriteKeys, type WriteKeys } from './writes/keys';

/** What the routes share: built once by buildContext. */
export interface AppContext {
  config: Config;
  graph: GraphClient;
  signIns: SignIns;
  /** Verifies the id_token of OIDC logins (`openid` in FB_SCOPES). */
  idTokens: IdTokenVerifier;
  sessions: SessionStoreHandle;
  logger: Logger;
  /** Page details and first feed pages, shared by sessions that hold a token for the page. */
  pageCache: PageCacheStore;
  /** Each person's list of pages, briefly, per user token. */
  accounts: AccountsCache;
  /** Each session's share of concurrent provider reads. */
  concurrentReadLimit: ConcurrentReadLimit;
  /** Each session's requests a minute that read upstream, so one busy session cannot spend everyone's provider quota. */
  sessionRateLimit: SessionRateLimit;
  /** Each session's writes a minute, counted apart from its reads (docs/architecture.md#writes). */
  writeRateLimit: SessionRateLimit;
  /** The one-time keys of the forms that write: in Redis when the page cache is shared (docs/architecture.md#writes). */
  writeKeys: WriteKeys;
  now: () => number;
  /** Page changes the provider reported, for the streams open on pages. */
  events: PageEvents;
  /** Open live-update streams, bounded per session and in all. */
  streams: StreamRegistry;
  /** Where the login rate limit counts: in Redis with Redis sessions, else this process's memory (undefined). */
  loginCounts?: Store;
  /** The Redis client everything above borrows, when SESSION_STORE=redis (src/redis.ts). */
  redis?: Redis;
  /** The Prometheus registry and its /metrics handler, when METRICS_PORT is set (docs/operations.md#metrics). */
  metrics?: Metrics;
  /** Traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md#traces). */
  tracing?: Tracing;
  /** What the routes tell the metrics and traces (logins, webhook deliveries, requests); undefined when both are off. */
  observer?: Observer;
  /** Draining or not, for /readyz: set by src/shutdown.ts at SIGTERM. */
  readiness: Readiness;
  /** Every language's messages and formatters, built once. */
  locales: Locales;
}

export interface ContextDeps {
  logger: Logger;
  /** Required with SESSION_STORE=redis: src/redis.ts redisFor(config, logger). */
  redis?: Redis;
  /** Default: graphClientFor(config, logger). */
  graph?: GraphClient;
  now?: () => number;
  /** Default: in Redis with SESSION_STORE=redis, else in memory. */
  sessions?: SessionStoreHandle;
  /** What the shared page cache and the event bus use of Redis. Default: `redis` (tests pass one that fails). */
  sharedRedis?: SharedRedis;
  /** Default: built from PAGE_CACHE_TTL, in Redis with PAGE_CACHE_STORE=redis. */
  cache?: PageCacheStore;
  /** Default: in this process only; through Redis pub/sub with PAGE_CACHE_STORE=redis. */
  events?: PageEvents;
  /** Default: bounded by LIVE_STREAMS_PER_SESSION and LIVE_STREAMS_MAX. */
  streams?: StreamRegistry;
  /** Started by src/server.ts (src/observe/tracing.ts tracingFor) when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  tracing?: Tracing;
  /** Tests only: offer the pseudo-locale `en-XA`, every message between markers. */
  pseudoLocale?: boolean;
}

/**
 * The composition root: builds what the routes share and makes every memory-or-Redis choice here, from the
 * configuration and the one Redis client it is lent (sessions, page cache, event bus, login counts).
 * Each part can be passed in instead (tests).
 */
export function buildContext(config: Config, deps: ContextDeps): AppContext {
  const ctx = buildParts(config, deps);
  // A person the provider signed out, on any instance: their streams here end as soon as the bus tells.
  ctx.events.onPersonEnded((userId) => ctx.streams.closePerson(userId));
  // Told by the parts as they work: the metrics, when METRICS_PORT is set, and the traces.
  const metrics = config.metrics ? metricsModule().createMetrics(ctx, config.metrics.host) : undefined;
  const { tracing } = deps;
  const observer = together(
    metrics?.observer,
    tracing ? { providerCall: (call) => tracing.providerCall(call) } : undefined,
  );
  if (observer?.providerCall) ctx.graph.watch(observer.providerCall);
  return {
    ...ctx,
    ...(metrics ? { metrics } : {}),
    ...(tracing ? { tracing } : {}),
    ...(observer ? { observer } : {}),
  };
}

function buildParts(config: Config, deps: ContextDeps): AppContext {
  const { logger, redis } = deps;
  const now = deps.now ?? Date.now;
  if (config.sessionStore === 'redis' && !redis && !deps.sessions)
    throw new Error('SESSION_STORE=redis: buildContext needs the Redis client (src/redis.ts redisFor)');
  // One cache and one event bus for every instance when the page cache lives in Redis.
  const shared = config.pageCacheStore === 'redis' ? (deps.sharedRedis ?? redis) : undefined;
  return {
    config,
    graph: deps.graph ?? graphClientFor(config, logger),
    sessions:
      deps.sessions ??
      (config.sessionStore === 'redis' && redis
        ? createRedisSessionStore(redis, config)
        : createMemorySessionStore(config)),
    logger,
    pageCache:
      deps.cache ??
      (shared
        ? new RedisPageCache(shared, {
            ttlSec: config.pageCacheTtlSec,
            prefix: `${config.redisKeyPrefix}cache:`,
            logger,
            now,
            answers: PROVIDER_ANSWERS,
          })
        : new MemoryPageCache({ ttlSec: config.pageCacheTtlSec })),
    accounts: new AccountsCache(config.accountsCacheTtlSec),
    concurrentReadLimit: new ConcurrentReadLimit(config.sessionUpstreamConcurrency),
    sessionRateLimit: new SessionRateLimit(config.sessionRateLimit),
    writeRateLimit: new SessionRateLimit(config.sessionRateLimit),
    writeKeys: shared ? new RedisWriteKeys(shared, `${config.redisKeyPrefix}writes:`) : new MemoryWriteKeys(),
    now,
    idTokens: new IdTokenVerifier(config, now),
    signIns: new SignIns(new TokenSealer(config.tokenKeys), config.sessionMaxSec * 1000, now),
    events:
      deps.events ??
      (shared
        ? new RedisPageEvents(shared, `${config.redisKeyPrefix}events`, logger, now)
        : new LocalPageEvents((err) => logger.error({ err }, 'a live-update listener failed'), now)),
    streams:
      deps.streams ??
      new StreamRegistry(config.liveStreamsPerSession, config.liveStreamsMax, {
        perPerson: config.liveStreamsPerPerson,
        perAddress: config.liveStreamsPerAddress,
      }),
    // The counts bound what one address puts in the session store, so they live where the sessions do.
    ...(config.sessionStore === 'redis' && redis && config.loginRateLimit > 0
      ? { loginCounts: redisCounts((args) => redis.send(args), `${config.redisKeyPrefix}rl:login:`) }
      : {}),
    ...(redis ? { redis } : {}),
    readiness: new Readiness(),
    locales: new Locales(deps.pseudoLocale === true),
  };
}

/**
 * prom-client, loaded only when METRICS_PORT is set: it requires the OpenTelemetry API as it loads, and an app
 * with neither metrics nor traces loads no OpenTelemetry module (docs/operations.md#traces).
 */
function metricsModule(): typeof import('./observe/metrics') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; import() would make buildContext async
  return require('./observe/metrics') as typeof import('./observe/metrics');
}

/** What to close once the last request is answered, in order: the provider agents, the session store, Redis. */
export function contextClosers(ctx: AppContext): Closer[] {
  const { redis } = ctx;
  return [
    { name: 'the provider agents', close: () => ctx.graph.close() },
    { name: 'the session store', close: () => ctx.sessions.close() },
    ...(redis ? [{ name: 'the Redis client', close: () => redis.close() }] : []),
    ...(ctx.tracing ? [{ name: 'the traces still buffered', close: () => ctx.tracing!.close() }] : []),
  ];
}
