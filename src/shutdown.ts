import type { Server } from 'node:http';
import type { Readiness } from './http/probes';
import type { Logger } from './log/logger';

/** Something to close once the last request is answered: the session store, the provider agents, the demo emulator. */
export type Closer = { name: string; close(): void | Promise<void> };

export interface ShutdownOptions {
  /** How often idle keep-alive connections are swept while requests finish. */
  sweepMs?: number;
  /** Marked draining at once, so /readyz answers 503 from the first moment. */
  readiness?: Readiness;
  /** How long the listener keeps serving after that (SHUTDOWN_DRAIN_SECONDS), so balancers stop sending. */
  drainMs?: number;
  /** Ends the drain instead of `drainMs` (tests end it on an event, not a clock). */
  drained?: Promise<void>;
  /** Runs once the drain is over, just before the listener closes (ends the live-update streams). */
  beforeClose?: () => void;
}

/**
 * Stops `server` gracefully: first `readiness` says draining (/readyz 503) while the listener keeps serving
 * for `drainMs`, so a balancer stops sending; then no new connections, requests in flight finish
 * (their keep-alive connection closes once its last response is out), then
 * each closer runs in order. A closer that fails is logged, not fatal: the
 * rest still run. Resolves when everything is closed; the caller decides
 * when to give up waiting and how to exit.
 */
export async function shutdown(
  server: Server,
  closers: readonly Closer[],
  logger: Logger,
  options: ShutdownOptions = {},
): Promise<void> {
  options.readiness?.drain();
  const drainMs = options.drainMs ?? 0;
  if (options.drained) await options.drained;
  else if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  options.beforeClose?.();
  const sweep = setInterval(() => server.closeIdleConnections(), options.sweepMs ?? 100);
  const closeAfterResponse = (_req: unknown, res: { setHeader(name: string, value: string): unknown }) =>
    res.setHeader('Connection', 'close');
  server.on('request', closeAfterResponse);
  try {
    await new Promise<void>((resolve, reject) => {
      server.close((err) =>
        err && (err as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING' ? reject(err) : resolve(),
      );
      server.closeIdleConnections();
    });
  } finally {
    clearInterval(sweep);
    server.off('request', closeAfterResponse);
  }
  for (const closer of closers) {
    try {
      await closer.close();
    } catch (err) {
      logger.warn({ err }, `closing ${closer.name} failed`);
    }
  }
}
