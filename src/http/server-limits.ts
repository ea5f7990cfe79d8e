import { createServer, type RequestListener, type Server } from 'node:http';

/**
 * How long a client may take and how many may be connected at once. A client
 * that trickles its headers or body, or connects and says nothing, would
 * otherwise hold a socket for minutes (Node's `requestTimeout` is 300 s) and
 * enough of them make the app unreachable.
 */
export interface ServerLimits {
  /** The whole request head must arrive within this (also bounds a socket that sends nothing). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this; at least `headersTimeoutMs`. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; above a proxy's own (nginx and ALB: 60 s), so the proxy closes first and never reuses a socket we are closing. */
  keepAliveTimeoutMs: number;
  /** How often Node checks the two timeouts above; a socket may outlive them by up to this much. */
  checkIntervalMs: number;
  /** Connections beyond this are closed as soon as they are accepted. Per-IP limits belong at the proxy. */
  maxConnections: number;
}

export const DEFAULT_SERVER_LIMITS: Readonly<ServerLimits> = Object.freeze({
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  checkIntervalMs: 1_000,
  maxConnections: 1_000,
});

/** The limits with `overrides` applied; throws when the combination cannot work. */
export function serverLimits(overrides: Partial<ServerLimits> = {}): ServerLimits {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1)
      throw new RangeError(`server limit ${name} must be a positive whole number, got ${value}`);
  }
  // Node refuses a head deadline later than the whole request's.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs)
    throw new RangeError('server limit headersTimeoutMs must not exceed requestTimeoutMs');
  return limits;
}

/**
 * An HTTP server for `listener` with `limits` applied. In Node 20 the head
 * deadline runs from the first byte of each request (or from the connection
 * when nothing was sent), not across a keep-alive pause, so a
 * `keepAliveTimeoutMs` above `headersTimeoutMs` is safe.
 */
export function createLimitedServer(listener: RequestListener, limits: ServerLimits = serverLimits()): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    listener,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}
