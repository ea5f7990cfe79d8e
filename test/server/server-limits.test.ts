import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { loadConfig } from '../../src/config';
import {
  createLimitedServer,
  DEFAULT_SERVER_LIMITS,
  serverLimits,
  type ServerLimits,
} from '../../src/http/server-limits';
import { startStack, type Stack } from '../support/stack';
import { eventually } from '../support/wait';

/**
 * Slow clients: a socket that says nothing, trickles its headers or trickles
 * its body is closed within the bound, and connections beyond the cap are
 * closed on arrival while those under it are still served.
 * @see docs/architecture.md#configuration
 */
const SMALL: Partial<ServerLimits> = {
  headersTimeoutMs: 300,
  requestTimeoutMs: 600,
  keepAliveTimeoutMs: 5000,
  checkIntervalMs: 50,
};

/** Opens a raw socket; `closed` resolves with how long it lived and what it was sent. */
function rawSocket(port: number): { socket: net.Socket; closed: Promise<{ ms: number; received: string }> } {
  const t0 = Date.now();
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => (received += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<{ ms: number; received: string }>((resolve) =>
    socket.on('close', () => resolve({ ms: Date.now() - t0, received })),
  );
  return { socket, closed };
}

/** Writes `text` one character every `everyMs`, until the socket closes; `left()` is what was not sent. */
function trickle(socket: net.Socket, text: string, everyMs: number): { left(): number } {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++]!);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
  return { left: () => text.length - i };
}

describe('server limits', () => {
  let stack: Stack;
  const servers: Server[] = [];
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await stack.close();
  });

  async function listen(overrides: Partial<ServerLimits>): Promise<number> {
    const server = createLimitedServer(stack.app, serverLimits(overrides));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  it('when nothing is overridden, then heads get 15 s, whole requests 30 s, and idle keep-alive outlives a 60 s proxy', () => {
    const server = createLimitedServer(stack.app);
    expect(server.headersTimeout).toBe(15_000);
    expect(server.requestTimeout).toBe(30_000);
    expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
    expect(server.maxConnections).toBe(DEFAULT_SERVER_LIMITS.maxConnections);
    expect(DEFAULT_SERVER_LIMITS.checkIntervalMs).toBeLessThanOrEqual(1000);
  });

  it('when MAX_CONNECTIONS is unset, then 1000; when it is not a positive whole number, then the error names it', () => {
    expect(loadConfig({}).maxConnections).toBe(1000);
    expect(loadConfig({ MAX_CONNECTIONS: '50' }).maxConnections).toBe(50);
    for (const bad of ['0', '-1', 'lots', '1.5'])
      expect(() => loadConfig({ MAX_CONNECTIONS: bad })).toThrow(/^MAX_CONNECTIONS: /);
  });

  it('when the head would be allowed longer than the whole request, then the limits are refused', () => {
    expect(() => serverLimits({ headersTimeoutMs: 2000, requestTimeoutMs: 1000 })).toThrow(/headersTimeoutMs/);
    expect(() => serverLimits({ maxConnections: 0 })).toThrow(/maxConnections/);
  });

  it('when a client connects and sends nothing, then the socket is closed within the head bound', async () => {
    const port = await listen(SMALL);
    const { closed } = rawSocket(port);
    const { ms } = await closed;
    // Nothing else closes it before the keep-alive bound; and not before the head bound.
    expect(ms).toBeGreaterThanOrEqual(SMALL.headersTimeoutMs! - 5);
    expect(ms).toBeLessThan(SMALL.keepAliveTimeoutMs!);
  });

  it('when a client trickles its headers, then the socket is closed within the head bound', async () => {
    const port = await listen(SMALL);
    const { socket, closed } = rawSocket(port);
    const slow = trickle(socket, `GET /healthz HTTP/1.1\r\nHost: app.test\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`, 20);
    const { ms, received } = await closed;
    // Closed while the client still had headers to send (about 4.6 s of them): the server's doing, not the clock's.
    expect(slow.left()).toBeGreaterThan(0);
    expect(ms).toBeGreaterThanOrEqual(SMALL.headersTimeoutMs! - 5);
    expect(received).not.toContain('200 OK');
  });

  it('when a client trickles its body, then the socket is closed within the request bound', async () => {
    const port = await listen(SMALL);
    const { socket, closed } = rawSocket(port);
    socket.write(
      'POST /auth/logout HTTP/1.1\r\nHost: app.test\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n',
    );
    const slow = trickle(socket, 'a'.repeat(1000), 20);
    const { ms } = await closed;
    // Closed while about 20 s of body were still to come, and not before the request bound.
    expect(slow.left()).toBeGreaterThan(0);
    expect(ms).toBeGreaterThanOrEqual(SMALL.requestTimeoutMs! - 5);
  });

  it('when the connection cap is reached, then a new connection is closed unanswered while one under the cap still gets /healthz', async () => {
    const port = await listen({ ...SMALL, headersTimeoutMs: 10_000, requestTimeoutMs: 10_000, maxConnections: 3 });
    // One keep-alive client that will keep using its connection, two idle sockets: the cap is reached.
    const keptAlive = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => keptAlive.once('connect', resolve));
    const ask = () =>
      new Promise<string>((resolve) => {
        let text = '';
        const onData = (d: Buffer) => {
          text += d.toString('latin1');
          if (text.includes('"store"')) {
            keptAlive.off('data', onData);
            resolve(text);
          }
        };
        keptAlive.on('data', onData);
        keptAlive.write('GET /healthz HTTP/1.1\r\nHost: app.test\r\n\r\n');
      });
    expect(await ask()).toMatch(/^HTTP\/1\.1 200/);
    const idle = [rawSocket(port), rawSocket(port)];
    // The cap counts what the server accepted: wait until it has all three, however long that takes.
    const server = servers.at(-1)!;
    await eventually(
      () => new Promise<boolean>((resolve) => server.getConnections((_err, count) => resolve(count >= 3))),
    );

    const over = rawSocket(port);
    over.socket.write('GET /healthz HTTP/1.1\r\nHost: app.test\r\n\r\n');
    const refused = await over.closed;
    expect(refused.received).toBe('');
    // Closed on arrival, not by the head bound (10 s here) that would close an idle socket.
    expect(refused.ms).toBeLessThan(10_000);

    expect(await ask()).toMatch(/^HTTP\/1\.1 200/);
    keptAlive.destroy();
    for (const s of idle) s.socket.destroy();
  });
});
