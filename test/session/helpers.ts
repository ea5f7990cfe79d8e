import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { graphClientFor } from '../../src/graph/client';
import { createLogger } from '../../src/log/logger';
import type { SessionStoreHandle } from '../../src/session/store';
import { startEmulator, type RunningEmulator } from '@pagelight/graph-emulator';
import { LogCapture, APP_ID, APP_SECRET, BASE_URL, SESSION_SECRET } from '../helpers/stack';

export { APP_ID, APP_SECRET, BASE_URL, SESSION_SECRET };

/** One emulator whose registered callback is the shared BASE_URL of every instance. */
export function startSharedEmulator(): Promise<RunningEmulator> {
  return startEmulator({ clients: [{ clientId: APP_ID, clientSecret: APP_SECRET, redirectUri: `${BASE_URL}/auth/callback`, name: 'Pagelight test' }] });
}

export function configFor(emulator: RunningEmulator, env: Record<string, string> = {}): Config {
  return loadConfig({
    FB_APP_ID: APP_ID,
    FB_APP_SECRET: APP_SECRET,
    FB_AUTH_URL: emulator.url,
    FB_GRAPH_URL: emulator.url,
    BASE_URL,
    SESSION_SECRET,
    PROVIDER_TIMEOUT_MS: '2000',
    // Suites start many logins from one address; the limit has its own tests.
    LOGIN_RATE_LIMIT: '0',
    ...env,
  });
}

/** One app instance on its own port, with its own Graph client and its own store handle. */
export interface Instance {
  url: string;
  sessions: SessionStoreHandle;
  logs: LogCapture;
  /** Stops listening and closes the store and the HTTP agents, like a SIGTERM would. */
  close(): Promise<void>;
}

export async function startInstance(
  config: Config,
  makeStore: (logger: ReturnType<typeof createLogger>) => Promise<SessionStoreHandle> | SessionStoreHandle,
  now?: () => number,
): Promise<Instance> {
  const logs = new LogCapture();
  const logger = createLogger({ level: 'info', destination: logs });
  const sessions = await makeStore(logger);
  const graph = graphClientFor(config, logger);
  const server: Server = createServer(createApp(config, { graph, sessions, logger, ...(now ? { now } : {}) }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    sessions,
    logs,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      graph.close();
      await sessions.close();
    },
  };
}

/**
 * A browser stand-in that talks to several origins (the instances) with one
 * cookie jar, as a load balancer in front of them would make it look.
 */
export class Browser {
  readonly jar = new Map<string, string>();

  async get(url: string): Promise<Response> {
    return this.send(url, { method: 'GET' });
  }

  async post(url: string, form: Record<string, string>): Promise<Response> {
    return this.send(url, { method: 'POST', body: new URLSearchParams(form), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set('cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.jar.delete(pair.slice(0, eq));
      else this.jar.set(pair.slice(0, eq), value);
    }
    return res;
  }

  /** The session id inside the signed cookie (`s:<sid>.<signature>`). */
  sessionId(): string | undefined {
    const raw = this.jar.get('pagelight');
    if (!raw) return undefined;
    return /^s:([^.]+)\./.exec(decodeURIComponent(raw))?.[1];
  }
}

export function csrfIn(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no CSRF token in the page: ${html.slice(0, 200)}`);
  return m[1]!;
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
  const result = spawnSync(process.execPath, ['-e', script, url], { cwd: process.cwd(), timeout: 1500, stdio: 'ignore' });
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
