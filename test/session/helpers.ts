/**
 * What only the session suites need: one emulator shared by several app
 * instances, a Redis probe and a TCP hop to break Redis with. Instances,
 * the cookie jar and the dialog driver come from test/support/.
 */
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../../src/config';
import { startEmulator, type RunningEmulator } from '@pagelight/graph-emulator';
import { APP_ID, APP_SECRET, appEnv, BASE_URL } from '../support/stack';

/** One emulator whose registered callback is the shared BASE_URL of every instance. */
export function startSharedEmulator(): Promise<RunningEmulator> {
  return startEmulator({
    seed: 'test',
    clients: [
      { clientId: APP_ID, clientSecret: APP_SECRET, redirectUri: `${BASE_URL}/auth/callback`, name: 'Pagelight test' },
    ],
  });
}

export function configFor(emulator: RunningEmulator, env: Record<string, string> = {}): Config {
  return loadConfig({ ...appEnv(emulator.url), PROVIDER_TIMEOUT_MS: '2000', ...env });
}

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

/** Polls until `check` holds or `ms` pass; returns the time it took. */
export async function waitFor(check: () => Promise<boolean>, ms: number, what: string): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
