import net, { type AddressInfo } from 'node:net';
import { createApp } from '../../src/app';
import { buildContext, contextClosers } from '../../src/context';
import { loadConfig } from '../../src/config';
import { createLimitedServer, serverLimits } from '../../src/http/server-limits';
import { createLogger } from '../../src/log/logger';
import { shutdown } from '../../src/shutdown';
import { LogCapture } from '../support/stack';

/**
 * The drain at SIGTERM: /readyz answers 503 from the first moment while the listener still serves, so a
 * balancer stops sending; once the drain ends the listener closes and the request in flight still completes.
 * The drain is ended by the test (an event), not by a clock.
 * @see docs/operations.md#probes-and-shutdown
 */
async function served() {
  const config = loadConfig({ SESSION_SECRET: 'drain-test-session-secret-0123456789abcdef' });
  const logs = new LogCapture();
  const logger = createLogger({ level: 'info', destination: logs });
  const ctx = buildContext(config, { logger });
  const server = createLimitedServer(createApp(ctx), serverLimits());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { ctx, server, logger, logs, port, url: `http://127.0.0.1:${port}` };
}

/** A raw HTTP/1.1 request whose body is held back: in flight until `finish()` sends the rest. */
function heldRequest(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  const ended = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  const connected = new Promise<void>((resolve) => socket.once('connect', resolve));
  const body = '_csrf=abcdefghij';
  return {
    async start() {
      await connected;
      socket.write(
        `POST /auth/logout HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 4)}`,
      );
    },
    finish() {
      socket.write(body.slice(4));
    },
    ended,
  };
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('shutdown(server, closers, logger, { readiness, drain })', () => {
  it('when SIGTERM starts the drain, then /readyz answers 503 at once while pages are still served, then the listener closes and the request in flight completes', async () => {
    const app = await served();
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    const inFlight = heldRequest(app.port);
    await inFlight.start();

    let endDrain!: () => void;
    const drained = new Promise<void>((resolve) => (endDrain = resolve));
    const closed: string[] = [];
    const stopped = shutdown(
      app.server,
      contextClosers(app.ctx).map((c) => ({
        name: c.name,
        close: async () => {
          await c.close();
          closed.push(c.name);
        },
      })),
      app.logger,
      { readiness: app.ctx.readiness, drained, beforeClose: () => closed.push('streams') },
    );

    // From the first moment: no await between the call and the probe.
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', store: 'memory', reason: 'draining' });
    expect((await fetch(`${app.url}/healthz`)).status).toBe(503);
    // Still serving during the drain: the balancer has not stopped sending yet.
    expect((await fetch(`${app.url}/livez`)).status).toBe(200);
    expect((await fetch(`${app.url}/`)).status).toBe(200);
    expect(closed).toEqual([]);

    endDrain();
    while (app.server.listening) await new Promise((resolve) => setImmediate(resolve));
    expect(await refused(app.port)).toBe(true);
    expect(closed).toEqual(['streams']);

    inFlight.finish();
    const answer = await inFlight.ended;
    // The logout has no session and a made-up token: its answer is the CSRF page, and it arrives.
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    await stopped;
    expect(closed).toEqual(['streams', 'the provider agents', 'the session store']);
  });

  it('when no drain is configured (SHUTDOWN_DRAIN_SECONDS=0), then the listener closes at once and /readyz was already 503', async () => {
    const app = await served();
    const stopped = shutdown(app.server, contextClosers(app.ctx), app.logger, { readiness: app.ctx.readiness });
    expect(app.ctx.readiness.draining).toBe(true);
    await stopped;
    expect(await refused(app.port)).toBe(true);
  });
});
