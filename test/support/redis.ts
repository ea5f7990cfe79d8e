/**
 * Redis for the suites that need one: whether it answers, an admin client that
 * cleans up after its suite, and a TCP hop to break it with.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { useRunning } from './lifetime';

/** The Redis the suites use (REDIS_URL); unset, the Redis suites are skipped. */
export const REDIS_URL = process.env.REDIS_URL ?? '';

/**
 * Is Redis answering a PING within a second? Decided synchronously (in a
 * child process) because jest picks `describe` or `describe.skip` at load time.
 */
export function redisAnswers(url: string): boolean {
  const script = `
    const { createClient } = require('redis');
    const c = createClient({ url: process.argv[1], socket: { connectTimeout: 1000, reconnectStrategy: false } });
    c.on('error', () => {});
    c.connect().then(() => c.ping()).then((r) => { process.exit(r === 'PONG' ? 0 : 1); }, () => process.exit(1));`;
  const result = spawnSync(process.execPath, ['-e', script, url], {
    cwd: process.cwd(),
    timeout: 1500,
    stdio: 'ignore',
  });
  return result.status === 0;
}

/**
 * A TCP hop between the app and Redis whose behaviour a test can change:
 * `up` forwards, `refuse` drops every connection (Redis unreachable),
 * `stall` keeps connections open but forwards nothing (a half-open network).
 */
export class TcpProxy {
  private mode: 'up' | 'refuse' | 'stall' = 'up';
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((client) => this.accept(client));
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  set(mode: 'up' | 'refuse' | 'stall'): void {
    this.mode = mode;
    if (mode === 'refuse') for (const s of this.sockets) s.destroy();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: net.Socket): void {
    if (this.mode === 'refuse') {
      client.destroy();
      return;
    }
    const upstream = net.connect(this.targetPort, this.targetHost);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        this.sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (d) => {
      if (this.mode === 'up') upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (this.mode === 'up') client.write(d);
    });
  }
}

/** Set by test/support/global-setup.ts for the whole run: "yes" when Redis answered its PING, else why not. */
export const REDIS_CHECKED_ENV = 'PAGELIGHT_TEST_REDIS';

/**
 * Why the Redis suites are skipped, or undefined when Redis at REDIS_URL answers. Decided once per run by
 * the global setup, which says it in one line; a file run without it (another jest config) asks itself.
 */
export function redisMissing(): string | undefined {
  const checked = process.env[REDIS_CHECKED_ENV] ?? checkRedis();
  return checked === 'yes' ? undefined : checked;
}

/** "yes", or why the Redis suites cannot run. */
export function checkRedis(): string {
  if (REDIS_URL === '') return 'REDIS_URL is not set';
  return redisAnswers(REDIS_URL) ? 'yes' : `Redis at REDIS_URL did not answer a PING within 1 s`;
}

/** `describe` when Redis at REDIS_URL answers, else `describe.skip`: the global setup has said why, once. */
export function describeWithRedis(): jest.Describe {
  return redisMissing() === undefined ? describe : describe.skip;
}

/** A key prefix no other run or suite uses (`pagelight-test:<pid>-<random>:<label>`), so suites share one Redis. */
export function uniqueKeyPrefix(label = ''): string {
  return `pagelight-test:${process.pid}-${randomBytes(4).toString('hex')}:${label}`;
}

/** A client of the suite's own, not the app's, logging nothing on errors. */
export function redisClient() {
  const client = createClient({ url: REDIS_URL });
  client.on('error', () => undefined);
  return client;
}

export type RedisClient = ReturnType<typeof redisClient>;

/** Every key under `prefix`. */
export async function keysUnder(client: RedisClient, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) found.push(...batch);
  return found;
}

/**
 * The admin client of the enclosing `describe`: connected before its tests;
 * after them, every key under `prefix` (the suite's own) deleted and the
 * client closed. Declare it after the hook that stops the suite's instances,
 * so nothing writes under the prefix once it is cleaned.
 */
export function useRedisAdmin(prefix: string): { readonly client: RedisClient; keys(): Promise<string[]> } {
  const now = useRunning(
    'useRedisAdmin',
    async () => {
      const client = redisClient();
      await client.connect();
      return client;
    },
    async (admin) => {
      const left = await keysUnder(admin, prefix);
      if (left.length) await admin.del(left);
      await admin.close();
    },
  );
  return {
    get client() {
      return now();
    },
    keys: () => keysUnder(now(), prefix),
  };
}

/** A key's whole value, whatever its type (strings, hashes, lists, sets, sorted sets with scores, streams). */
export async function valueOfKey(client: RedisClient, key: string): Promise<unknown> {
  const type = await client.type(key);
  switch (type) {
    case 'string':
      return client.get(key);
    case 'hash':
      return client.hGetAll(key);
    case 'list':
      return client.lRange(key, 0, -1);
    case 'set':
      return client.sMembers(key);
    case 'zset':
      return client.zRangeWithScores(key, 0, -1);
    case 'stream':
      return client.xRange(key, '-', '+');
    default:
      return `(${type})`;
  }
}
