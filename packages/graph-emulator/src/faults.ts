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

  /** The failure for this request, if one is scripted for its path (first in, first used). */
  take(path: string): Failure | undefined {
    const index = this.queue.findIndex((s) => s.failure.match === undefined || path.includes(s.failure.match));
    const scripted = this.queue[index];
    if (scripted === undefined) return undefined;
    scripted.remaining -= 1;
    if (scripted.remaining <= 0) this.queue.splice(index, 1);
    return scripted.failure;
  }

  /**
   * The Graph error scripted for one operation of a batch (graph/batch.ts), if one names its path with `match`:
   * an operation is a Graph call of its own, but only an error can be scripted for it (it has no socket).
   */
  takeForOperation(path: string): GraphError | undefined {
    const index = this.queue.findIndex(
      (s) => s.failure.match !== undefined && path.includes(s.failure.match) && (s.failure.kind ?? 'graph') === 'graph',
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
  if (faults.latencyMs <= 0) return;
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
    const failure = faults.take(req.path);
    if (failure === undefined) {
      holdUntil(res, performance.now() + faults.latencyMs, faults);
      return next();
    }
    await faults.sleep(faults.latencyMs);
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
