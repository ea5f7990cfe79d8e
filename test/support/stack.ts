import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../src/app';
import { buildContext, contextClosers, type AppContext } from '../../src/context';
import { loadConfig, type Config } from '../../src/config';
import { graphClientFor, type GraphClient } from '../../src/graph/client';
import { createLogger } from '../../src/log/logger';
import { MemoryPageCache, type MemoryPageCacheOptions } from '../../src/cache/memory-page-cache';
import { LocalPageEvents } from '../../src/live/bus';
import type { StreamRegistry } from '../../src/live/streams';
import { redisFor, type RedisOptions, type SharedRedis } from '../../src/redis';
import { createMemorySessionStore, type SessionStoreHandle } from '../../src/session/store';
import {
  startEmulator,
  type EmulatorOptions,
  type EmulatorProfile,
  type RunningEmulator,
  type Seed,
  type SeedName,
} from '@pagelight/graph-emulator';
import { credentialsSeenBy, leakedLines } from './log-scrape';
import { useRunning, type Lifetime } from './lifetime';

export const APP_ID = '1234567890123456';
export const APP_SECRET = 'test-app-secret-value-0001';
export const SESSION_SECRET = 'test-session-secret-0123456789abcdef';
export const BASE_URL = 'http://app.test';

/** Every log line the app wrote, for assertions (nothing secret may be in one). */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface Stack {
  app: Express;
  config: Config;
  emulator: RunningEmulator;
  logs: LogCapture;
  sessions: SessionStoreHandle;
  graph: GraphClient;
  /** The page cache the app uses (off unless the test sets PAGE_CACHE_TTL). */
  cache: MemoryPageCache;
  /** The bus webhook deliveries publish to and live-update streams listen on. */
  events: LocalPageEvents;
  /** The open live-update streams, to wait until the server has let go of a closed one. */
  streams: StreamRegistry;
  close(): Promise<void>;
}

/** Emulators of stacks not yet closed, checked after every test. */
const open = new Set<RunningEmulator>();

// A failure scripted but never fired means the test did not exercise what it meant to:
// fail that test (and drop the leftover, so the next test is not hit by it).
// Outside jest (scripts/, bench/) there is no afterEach; close() still checks.
if (typeof afterEach === 'function') {
  afterEach(() => {
    for (const emulator of open) {
      const pending = emulator.controls.pendingFailures();
      if (pending.length === 0) continue;
      emulator.controls.clearFailures();
      throw new Error(`scripted emulator failure(s) never fired: ${JSON.stringify(pending)}`);
    }
  });
}

export interface StackOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  now?: () => number;
  /** Bounds of the page cache; its TTL comes from PAGE_CACHE_TTL in `env`. */
  cache?: Omit<MemoryPageCacheOptions, 'ttlSec'>;
  /** The emulator's PKCE behaviour (default `facebook`, as the provider). */
  profile?: EmulatorProfile;
  /** Emulator options beyond the registered client (e.g. `accountsPageSize`). */
  emulator?: Omit<EmulatorOptions, 'clients' | 'seed'>;
  /**
   * The emulator's data: `test` (default), the hostile and awkward content the
   * suites assert on, or `demo`, the realistic content people see (screens,
   * screenshots). The emulator's README, "Seeds". Or a seed of the test's own (many Pages).
   */
  seed?: SeedName | Seed;
  /** Offer the pseudo-locale `en-XA` (docs/architecture.md#languages), for the test that finds words outside the catalogs. */
  pseudoLocale?: boolean;
}

/** The variables an operator would set to point the app at the emulator at `providerUrl`. */
export function appEnv(providerUrl: string): Record<string, string> {
  return {
    FB_APP_ID: APP_ID,
    FB_APP_SECRET: APP_SECRET,
    FB_AUTH_URL: providerUrl,
    FB_GRAPH_URL: providerUrl,
    // The emulator serves its seed's pictures on its own origin.
    FB_IMAGE_ORIGINS: providerUrl,
    // And its videos.
    FB_MEDIA_ORIGINS: providerUrl,
    BASE_URL,
    SESSION_SECRET,
    // Suites start many logins from one address; the limit has its own tests.
    LOGIN_RATE_LIMIT: '0',
  };
}

/**
 * The app (not listening: supertest drives it) wired to an emulator on an
 * ephemeral port, configured through the same variables an operator sets.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const baseUrl = options.env?.BASE_URL ?? BASE_URL;
  const emulator = await startEmulator({
    ...(options.profile ? { profile: options.profile } : {}),
    clients: [
      { clientId: APP_ID, clientSecret: APP_SECRET, redirectUri: `${baseUrl}/auth/callback`, name: 'Pagelight test' },
    ],
    ...options.emulator,
    seed: options.seed ?? 'test',
  });
  open.add(emulator);
  const config = loadConfig({
    ...appEnv(emulator.url),
    PROVIDER_TIMEOUT_MS: String(options.timeoutMs ?? 1500),
    // Off by default so tests that count upstream calls see every call.
    PAGE_CACHE_TTL: '0',
    ...options.env,
  });
  const logs = new LogCapture();
  const logger = createLogger({ level: 'debug', destination: logs });
  const sessions = createMemorySessionStore(config);
  const graph = graphClientFor(config, logger, { retry: { retries: 1, baseMs: 10, capMs: 50, deadlineMs: 4000 } });
  const cache = new MemoryPageCache({ ...options.cache, ttlSec: config.pageCacheTtlSec });
  const events = new LocalPageEvents();
  const ctx = buildContext(config, {
    graph,
    sessions,
    logger,
    cache,
    events,
    ...(options.now ? { now: options.now } : {}),
    ...(options.pseudoLocale ? { pseudoLocale: true } : {}),
  });
  const app = createApp(ctx);
  return {
    app,
    config,
    emulator,
    logs,
    sessions,
    graph,
    cache,
    events,
    streams: ctx.streams,
    close: async () => {
      open.delete(emulator);
      const pending = emulator.controls.pendingFailures();
      // The log scrape (docs/architecture.md#security-rules): whatever a suite did, no credential may have reached a log line.
      const leaks = leakedLines(logs.lines, credentialsSeenBy(emulator, APP_SECRET));
      graph.close();
      await sessions.close();
      await emulator.close();
      if (leaks.length > 0) throw new Error(`credentials in the app's log:\n${leaks.slice(0, 5).join('\n')}`);
      if (pending.length > 0) throw new Error(`scripted emulator failure(s) never fired: ${JSON.stringify(pending)}`);
    },
  };
}

/** The fields of a Stack that useStack's handle reads from the running stack. */
const STACK_FIELDS = ['app', 'config', 'emulator', 'logs', 'sessions', 'graph', 'cache', 'events', 'streams'] as const;
// A field added to Stack and not listed above fails to compile here.
const everyField: Exclude<keyof Stack, 'close' | (typeof STACK_FIELDS)[number]> extends never ? true : never = true;
void everyField;

/** When a suite's stack is started and closed: once for its describe block, or afresh for each test. */
export type StackLifetime = Lifetime;

/**
 * The stack of the enclosing `describe`: started before its tests and closed
 * after them (with `perTest`, around each test), so a suite states only what
 * it needs. The fields read the stack running now; reading one outside a test
 * is an error that says so.
 */
export function useStack(options: StackOptions = {}, lifetime: StackLifetime = {}): Stack {
  const now = useRunning(
    'useStack',
    () => startStack(options),
    (stack) => stack.close(),
    lifetime,
  );
  const handle = {
    close: () => Promise.reject(new Error('useStack closes its stack itself')),
  } as Stack;
  for (const field of STACK_FIELDS) Object.defineProperty(handle, field, { get: () => now()[field] });
  return handle;
}

export type Agent = ReturnType<typeof request.agent>;

export function agentFor(stack: Stack): Agent {
  return request.agent(stack.app);
}

/** Something listening on a loopback port, and how to stop it. */
export interface Listening {
  url: string;
  close(): Promise<void>;
}

/** Serves `handler` (an app, or one attached later) on an ephemeral loopback port. */
export async function listen(
  handler?: RequestListener,
): Promise<Listening & { server: ReturnType<typeof createServer> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A stack served on a real loopback port, for clients that need one (fetch,
 * another process): listens first, because the app's BASE_URL (and so the
 * callback the emulator redirects to) is the port it got.
 */
export async function startServedStack(
  options: StackOptions = {},
): Promise<{ stack: Stack; url: string; close(): Promise<void> }> {
  const served = await listen();
  const stack = await startStack({ ...options, env: { ...options.env, BASE_URL: served.url } });
  served.server.on('request', stack.app);
  return {
    stack,
    url: served.url,
    close: async () => {
      await served.close();
      await stack.close();
    },
  };
}

/**
 * The served stack of the enclosing `describe` (see startServedStack): started before its tests and closed after
 * them. `stack` and `url` read the one running now; reading one outside a test is an error that says so.
 */
export function useServedStack(options: StackOptions = {}): { readonly stack: Stack; readonly url: string } {
  const now = useRunning(
    'useServedStack',
    () => startServedStack(options),
    (served) => served.close(),
  );
  return {
    get stack() {
      return now().stack;
    },
    get url() {
      return now().url;
    },
  };
}

/** A stack whose Pages are live: it answers the webhook handshake, and connecting a Page subscribes it. */
export const LIVE_ENV = {
  FB_WEBHOOK_VERIFY_TOKEN: 'verify-token-for-tests-0001',
  FB_SCOPES: 'pages_show_list pages_read_engagement pages_manage_metadata',
} as const;

/** One listening app instance with its own Graph client and its own Redis connection (several may share a store). */
export interface Instance extends Listening {
  sessions: SessionStoreHandle;
  logs: LogCapture;
  /** What the instance was built from (its caches, for the tests that look inside them). */
  ctx: AppContext;
}

export interface InstanceOptions {
  now?: () => number;
  /** The instance's Redis connection (its CLIENT SETNAME, deadlines). */
  redis?: RedisOptions;
  /** Instead of the store SESSION_STORE asks for. */
  sessions?: SessionStoreHandle;
  /** What the page cache and the events use of Redis, instead of the instance's connection. */
  sharedRedis?: SharedRedis;
}

/** Starts an instance on its own port, built as src/server.ts builds one; close() closes what a SIGTERM would. */
export async function startInstance(config: Config, options: InstanceOptions = {}): Promise<Instance> {
  const logs = new LogCapture();
  const logger = createLogger({ level: 'info', destination: logs });
  const { now, sessions, sharedRedis } = options;
  const redis = await redisFor(config, logger, options.redis);
  const ctx = buildContext(config, {
    logger,
    ...(redis ? { redis } : {}),
    ...(now ? { now } : {}),
    ...(sessions ? { sessions } : {}),
    ...(sharedRedis ? { sharedRedis } : {}),
  });
  const served = await listen(createApp(ctx));
  return {
    url: served.url,
    sessions: ctx.sessions,
    logs,
    ctx,
    close: async () => {
      await served.close();
      for (const closer of contextClosers(ctx)) await closer.close();
    },
  };
}
