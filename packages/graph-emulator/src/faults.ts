/**
 * Injected latency and scripted failures for the Graph and token endpoints,
 * so the app's timeout, retry and error paths can be tested against a
 * provider that misbehaves on cue (`controls.failNext`, `controls.setLatency`).
 */
import type { NextFunction, Request, Response } from 'express';
import { defaultMessage, GraphError } from './errors';
import { Timers } from './timers';
import type { Failure, PendingFailure } from './types';

interface Scripted {
  remaining: number;
  failure: Failure;
}

export class Faults {
  latencyMs = 0;
  private queue: Scripted[] = [];
  private readonly timers = new Timers();
  private disposed = false;

  failNext(n: number, failure: Failure): void {
    if (!Number.isInteger(n) || n < 1) throw new Error('failNext: n must be a positive integer');
    this.queue.push({ remaining: n, failure: { ...failure } });
  }

  /**
   * The failure for this request, if one is scripted for its path (first in, first used); one scripted for
   * `writes` only when the request is a write.
   */
  take(path: string, write = false): Failure | undefined {
    const index = this.queue.findIndex(
      (s) => (s.failure.match === undefined || path.includes(s.failure.match)) && (s.failure.writes !== true || write),
    );
    const scripted = this.queue[index];
    if (scripted === undefined) return undefined;
    scripted.remaining -= 1;
    if (scripted.remaining <= 0) this.queue.splice(index, 1);
    return scripted.failure;
  }

  /**
   * The Graph error scripted for one operation of a batch (graph/batch.ts), if one names its path with `match`:
   * an operation is a Graph call of its own, but only an error can be scripted for it (it has no socket). One
   * scripted for `writes` waits for an operation that writes.
   */
  takeForOperation(path: string, write: boolean): GraphError | undefined {
    const index = this.queue.findIndex(
      (s) =>
        s.failure.match !== undefined &&
        path.includes(s.failure.match) &&
        (s.failure.kind ?? 'graph') === 'graph' &&
        (s.failure.writes !== true || write),
    );
    const scripted = this.queue[index];
    if (scripted === undefined) return undefined;
    scripted.remaining -= 1;
    if (scripted.remaining <= 0) this.queue.splice(index, 1);
    return scriptedError(scripted.failure as Extract<Failure, { error: unknown }>);
  }

  get pending(): number {
    return this.queue.reduce((sum, s) => sum + s.remaining, 0);
  }

  /** Scripted failures not yet used up, oldest first (copies). */
  pendingFailures(): PendingFailure[] {
    return this.queue.map((s) => ({ remaining: s.remaining, failure: { ...s.failure } }));
  }

  /** Drops every scripted failure; returns how many requests they would still have failed. */
  clearFailures(): number {
    const dropped = this.pending;
    this.queue = [];
    return dropped;
  }

  clear(latencyMs: number): void {
    this.queue = [];
    this.latencyMs = latencyMs;
  }

  /** A timer that does not keep the process alive and dies with the emulator. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.disposed) return;
      this.timers.after(ms, resolve);
    });
  }

  /** On close: pending sleeps never resolve (their sockets are being destroyed anyway). */
  dispose(): void {
    this.disposed = true;
    this.timers.clear();
  }
}

/** Holds the answer (`res.end`) until `deadline` (performance.now() ms); one made after it goes out at once. */
function holdUntil(res: Response, deadline: number, faults: Faults): void {
  if (deadline - performance.now() < 1) return;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    const wait = deadline - performance.now();
    if (wait < 1) return end(...args);
    void faults.sleep(wait).then(() => end(...args));
    return res;
  }) as Response['end'];
}

const DEFAULT_HTTP_BODY = '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';

/**
 * Applies latency, and the next scripted failure matching the path, if any.
 *
 * The latency is the round trip as a client sees it: an answer goes out `latencyMs` after its request came in,
 * however long the emulator took to make it, as the provider's own work happens within its round trip.
 * (Sleeping first and working after added the emulator's CPU time, spent on the client's own machine, to
 * every call.) A scripted failure is answered after the latency too.
 */
export function faultMiddleware(faults: Faults) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const came = performance.now();
    const failure = faults.take(req.path, isWrite(req));
    if (failure === undefined) {
      holdUntil(res, came + faults.latencyMs, faults);
      return next();
    }
    if (failure.kind === 'late') {
      // Handled now, as the provider does the work; only the answer is late (a client that gave up never sees it).
      holdUntil(res, came + faults.latencyMs + failure.ms, faults);
      return next();
    }
    await faults.sleep(faults.latencyMs);
    // The provider documents no Retry-After (its throttling says when in X-Business-Use-Case-Usage); a scripted
    // failure may carry one for clients that honour the HTTP header (RFC 9110 §10.2.3).
    if ('retryAfter' in failure && failure.retryAfter !== undefined) res.set('Retry-After', String(failure.retryAfter));
    switch (failure.kind) {
      case 'reset':
        // What a crashed upstream or a dropped connection looks like to a client: ECONNRESET.
        req.socket.destroy();
        return;
      case 'hang':
        // Never answer; the client's own timeout must fire. Ends when the emulator closes.
        return;
      case 'slow':
        await faults.sleep(failure.ms);
        return next();
      case 'http':
        res
          .status(failure.status)
          .type(failure.contentType ?? 'text/html; charset=utf-8')
          .send(failure.body ?? DEFAULT_HTTP_BODY);
        return;
      default:
        throw scriptedError(failure);
    }
  };
}

/**
 * A Graph write: a `POST` or `DELETE` of a node or edge (the body and query are parsed by now), not the token
 * endpoint, a batch (`POST /`) or a `POST` that reads (`method=get`, the legacy override).
 */
function isWrite(req: Request): boolean {
  if (req.method !== 'POST' && req.method !== 'DELETE') return false;
  const path = req.path.replace(/^\/v\d+\.\d+(?=\/|$)/, '');
  if (path === '' || path === '/' || /^\/oauth\/access_token\/?$/.test(path)) return false;
  const body = req.body as Record<string, unknown> | undefined;
  const override = body?.method ?? (req.query as Record<string, unknown>).method;
  return req.method === 'DELETE' || typeof override !== 'string' || override.toLowerCase() !== 'get';
}

function scriptedError(failure: Extract<Failure, { error: unknown }>): GraphError {
  const { code, subcode, message, type, userTitle, userMessage } = failure.error;
  return new GraphError({
    code,
    message: message ?? defaultMessage(code),
    ...(subcode !== undefined ? { subcode } : {}),
    ...(type !== undefined ? { type } : {}),
    ...(userTitle !== undefined ? { userTitle } : {}),
    ...(userMessage !== undefined ? { userMessage } : {}),
    ...(failure.status !== undefined ? { status: failure.status } : {}),
  });
}
