import type { Request, RequestHandler } from 'express';
import { AppError } from '../errors';
import { perMinuteLimit } from '../http/rate-limit';

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
export class ReadShares {
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
 * Requests per minute per session on routes the cache does not serve. Keyed by the session the cookie names,
 * resolved as express-session resolves it (however the cookie is spelled), not the address: people behind one
 * NAT are not limited together, and a session is what holds the tokens. It runs before the session is read, so
 * it counts every such request that names a session; a request that names none is not connected and goes
 * nowhere upstream.
 */
export function sessionRateLimit(perMinute: number, sessionOf: (req: Request) => string | undefined): RequestHandler {
  return perMinuteLimit({
    limit: perMinute,
    skip: (req) => sessionOf(req) === undefined,
    key: (req) => `session:${sessionOf(req) ?? ''}`,
    refuse: (_req, _res, next, seconds) =>
      next(new TooManyRequestsError(seconds, 'Too many requests from this session.')),
  });
}
