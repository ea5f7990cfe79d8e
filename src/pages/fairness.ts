import type { Request, RequestHandler } from 'express';
import { MemoryStore, type Options } from 'express-rate-limit';
import { LRUCache } from 'lru-cache';
import { AppError } from '../errors';
import type { AppContext } from '../context';
import type { AdmitRead } from '../graph/client';
import type { Refuse } from '../http/refusal';
import type { UserAccess } from '../session/access';

/**
 * Fairness between sessions: one person's burst of uncached requests must not
 * slow everyone else's page views (the provider sockets and the app's
 * provider budget are shared). See docs/architecture.md#fairness-between-sessions.
 */

/** This session asked for more than its share: a 429 with how long to wait. */
export class TooManyRequestsError extends AppError {
  declare readonly retryAfterSec: number;

  constructor(retryAfterSec: number, message = 'Too many requests from this session.') {
    super('too_many_requests', message);
    this.retryAfterSec = Math.max(1, Math.ceil(retryAfterSec));
  }
}

interface Slot {
  active: number;
  waiting: Waiter[];
}

interface Waiter {
  admit: () => void;
}

/**
 * At most `limit` provider reads under way per session; a further read waits
 * up to `waitMs` for a slot, then fails with a 429. Only reads that really go
 * upstream pass through here: cache hits never wait.
 */
export class ConcurrentReadLimit {
  private readonly slots = new Map<string, Slot>();
  /** Reads turned away after waiting (for tests and the report). */
  refused = 0;

  constructor(
    private readonly limit: number,
    private readonly waitMs = 1000,
    /** Beyond this many waiting reads a session is refused at once: a queue that long cannot drain in time. */
    private readonly maxWaiting = 4 * limit,
  ) {}

  async run<T>(session: string, read: () => Promise<T>): Promise<T> {
    await this.enter(session);
    try {
      return await read();
    } finally {
      this.leave(session);
    }
  }

  /** Reads under way for a session (tests). */
  active(session: string): number {
    return this.slots.get(session)?.active ?? 0;
  }

  private enter(session: string): Promise<void> {
    let slot = this.slots.get(session);
    if (!slot) this.slots.set(session, (slot = { active: 0, waiting: [] }));
    if (slot.active < this.limit) {
      slot.active++;
      return Promise.resolve();
    }
    if (slot.waiting.length >= this.maxWaiting) return Promise.reject(this.refuse());
    const queue = slot.waiting;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(waiter), 1);
        reject(this.refuse());
      }, this.waitMs);
      queue.push(waiter);
    });
  }

  /** A finished read hands its slot to the next waiting one, else frees it. */
  private leave(session: string): void {
    const slot = this.slots.get(session);
    if (!slot) return;
    const next = slot.waiting.shift();
    if (next) {
      next.admit();
      return;
    }
    slot.active--;
    if (slot.active <= 0 && slot.waiting.length === 0) this.slots.delete(session);
  }

  private refuse(): TooManyRequestsError {
    this.refused++;
    return new TooManyRequestsError(
      Math.ceil(this.waitMs / 1000),
      'Too many requests from this session are waiting for the provider.',
    );
  }
}

/**
 * Requests per minute per session that read upstream without being served from the shared cache, on every
 * route (docs/architecture.md#fairness-between-sessions). Keyed by the session the cookie names, resolved as
 * express-session resolves it (however the cookie is spelled), not the address: people behind one NAT are not
 * limited together, and a session is what holds the tokens. Counted where the answer is known:
 *
 * - `middleware`: in front of the stack, for routes that always read upstream (older posts, a later page of
 *   comments, replies, the picker). A refusal there is answered by `refuse` (src/http/refusal.ts) before the
 *   security headers, the access log, the language or the session are worked out, so the refusals of a burst
 *   cost others next to nothing. A request that names no session is not connected and goes nowhere upstream:
 *   not counted.
 * - `count`: at a request's first read that misses the shared cache (the page, a post, insights), through the
 *   read admission ({@link admitReads}); a request counts once however many reads it makes, and never twice.
 */
export class SessionRateLimit {
  private readonly counts = new MemoryStore();
  /** Requests already counted (by request number), each with its count's outcome. */
  private readonly counted = new LRUCache<number, Promise<void>>({ max: 10_000, ttl: 60_000 });

  constructor(private readonly perMinute: number) {
    // express-rate-limit's store, initialised here: the middleware and `count` both count in it.
    this.counts.init({ windowMs: 60_000 } as Options);
  }

  middleware(
    sessionOf: (req: Request) => string | undefined,
    requestOf: (req: Request) => number,
    refuse: Refuse,
  ): RequestHandler {
    // The count itself, as `count` makes it, not through express-rate-limit's middleware: that one also works out
    // the client address, hashes the key and sets two headers on every request, a third of what a refusal cost.
    return (req, res, next) => {
      const session = sessionOf(req);
      if (session === undefined) {
        next();
        return;
      }
      this.counts
        .increment(keyOf(session))
        .then(({ totalHits, resetTime }) => {
          if (totalHits > this.perMinute) {
            refuse(req, res, secondsUntil(resetTime), totalHits - this.perMinute);
            return;
          }
          // Counted here: the request's upstream reads do not count again.
          this.counted.set(requestOf(req), Promise.resolve());
          next();
        })
        // A failed count or refusal goes to the error handler, never left unanswered.
        .catch(next);
    };
  }

  /** Counts `access`'s request once; rejects with a 429 when the session's minute is spent. */
  count(access: Pick<UserAccess, 'sessionId' | 'request'>): Promise<void> {
    let counting = this.counted.get(access.request);
    if (counting === undefined) {
      counting = this.increment(access.sessionId);
      this.counted.set(access.request, counting);
    }
    return counting;
  }

  private async increment(sessionId: string): Promise<void> {
    const { totalHits, resetTime } = await this.counts.increment(keyOf(sessionId));
    if (totalHits <= this.perMinute) return;
    throw new TooManyRequestsError(secondsUntil(resetTime), REFUSAL);
  }
}

const REFUSAL = 'Too many requests from this session.';

const keyOf = (sessionId: string) => `session:${sessionId}`;

/**
 * Admits one of this request's reads upstream: counted against the session's requests a minute (once per
 * request), then within its share of concurrent reads (./limits). Only reads that miss the shared cache pass here.
 */
export function admitReads(ctx: AppContext, access: Pick<UserAccess, 'sessionId' | 'request'>): AdmitRead {
  return async (read) => {
    await ctx.sessionRateLimit.count(access);
    return ctx.concurrentReadLimit.run(access.sessionId, read);
  };
}

/** Seconds until a count's window ends, at least 1: what `Retry-After` says. */
const secondsUntil = (resetTime: Date | undefined) =>
  resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : 60;
