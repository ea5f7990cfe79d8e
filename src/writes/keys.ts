import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { SharedRedis } from '../redis';

/**
 * One write per intent (docs/architecture.md#writes): every form that writes carries a one-time key made when it
 * was rendered. The first request with a key claims it and makes the provider call; a repeat (a double click, a
 * browser resubmission, a second tab, another instance) never calls again and answers what the first one got.
 * What a key records is kept for KEY_TTL_MS: in this process, or in Redis (`SET NX PX`) when the page cache is
 * shared, so that every instance sees the same claim (the webhook replay guard's choice, src/webhooks/routes.ts).
 */

/** How long a key's claim and outcome are kept: far longer than anyone resubmits a form. */
export const KEY_TTL_MS = 30 * 60_000;

/** What a claimed key holds: nothing yet (the first request is still waiting for the provider), or its outcome. */
export type Claim<R> = { state: 'first' } | { state: 'pending' } | { state: 'recorded'; recorded: R };

export interface WriteKeys {
  /** Claims `key` for this request, or tells what an earlier request with it is doing or got. */
  claim<R>(key: string): Promise<Claim<R>>;
  /** Keeps what the write with `key` came to (JSON), for its repeats. */
  record<R>(key: string, recorded: R): Promise<void>;
  /** What `key` holds now (a repeat waiting for the first to end). */
  peek<R>(key: string): Promise<Claim<R>>;
}

/** A fresh form key: random, URL-safe, 128 bits. */
export function newFormKey(): string {
  return randomBytes(16).toString('base64url');
}

/** A form key as the person's browser sent it: what newFormKey makes, nothing else. */
export function isFormKey(value: unknown): value is string {
  return typeof value === 'string' && /^[\w-]{22}$/.test(value);
}

/**
 * The stored key of one intent: the session (hashed: the key names no session), the form's key, and what it
 * asks, so a key carried to another form is another intent.
 */
export function intentKey(sessionId: string, formKey: string, what: string): string {
  return createHash('sha256').update(`${sessionId}\n${formKey}\n${what}`).digest('base64url');
}

const PENDING = 'pending';

/** Where the write path notes an object it made, so the provider's webhook for it tells open pages nothing new. */
export function writtenKey(objectId: string): string {
  return `written:${objectId}`;
}

/**
 * Where the write path notes a change it made to a post (edited, removed, published: the provider's webhook verb),
 * so the provider's webhook for it tells open pages nothing new. By post and verb: the change has no id of its own,
 * so the same change made on Facebook within KEY_TTL_MS is told by its cache drop alone, not to open pages.
 */
export function writtenPostKey(postId: string, verb: string): string {
  return writtenKey(`${postId} ${verb}`);
}

/** This process's keys: enough for one instance. */
export class MemoryWriteKeys implements WriteKeys {
  private readonly keys = new LRUCache<string, string>({ max: 50_000, ttl: KEY_TTL_MS });

  claim<R>(key: string): Promise<Claim<R>> {
    const known = this.keys.get(key);
    if (known !== undefined) return Promise.resolve(parse<R>(known));
    this.keys.set(key, PENDING);
    return Promise.resolve({ state: 'first' });
  }

  record<R>(key: string, recorded: R): Promise<void> {
    this.keys.set(key, JSON.stringify(recorded));
    return Promise.resolve();
  }

  peek<R>(key: string): Promise<Claim<R>> {
    const known = this.keys.get(key);
    return Promise.resolve(known === undefined ? { state: 'pending' } : parse<R>(known));
  }
}

/** Deadline of one Redis command here: a write waits on it before its provider call. */
const REDIS_DEADLINE_MS = 1000;

/**
 * Every instance's keys, in Redis under REDIS_KEY_PREFIX. When Redis does not answer, the claim fails: the write is
 * not made (the person's text stays, with the reason) rather than made without knowing it is the only one.
 */
export class RedisWriteKeys implements WriteKeys {
  constructor(
    private readonly redis: SharedRedis,
    private readonly prefix: string,
  ) {}

  async claim<R>(key: string): Promise<Claim<R>> {
    const set = await this.redis.command(
      ['SET', this.prefix + key, PENDING, 'NX', 'PX', String(KEY_TTL_MS)],
      REDIS_DEADLINE_MS,
    );
    if (set !== null) return { state: 'first' };
    return this.peek<R>(key);
  }

  async record<R>(key: string, recorded: R): Promise<void> {
    await this.redis.command(
      ['SET', this.prefix + key, JSON.stringify(recorded), 'PX', String(KEY_TTL_MS)],
      REDIS_DEADLINE_MS,
    );
  }

  async peek<R>(key: string): Promise<Claim<R>> {
    const value = await this.redis.command(['GET', this.prefix + key], REDIS_DEADLINE_MS);
    return typeof value === 'string' ? parse<R>(value) : { state: 'pending' };
  }
}

function parse<R>(value: string): Claim<R> {
  if (value === PENDING) return { state: 'pending' };
  return { state: 'recorded', recorded: JSON.parse(value) as R };
}
