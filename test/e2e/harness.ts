/**
 * The browser suite's stage: the built app and the provider emulator as two
 * separate processes on free loopback ports, and real Chromium driving them.
 * Every browser context is watched: console errors, uncaught exceptions, CSP
 * violations and every URL requested are recorded for the tests to assert on.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromiumPath } = require('./chromium') as { chromiumPath: () => string };

const ROOT = path.resolve(__dirname, '..', '..');
export const APP_ID = '1234567890123456';
const APP_SECRET = 'e2e-app-secret-not-for-production';
const SESSION_SECRET = 'e2e-session-secret-of-at-least-32-characters';

/** A port the OS just handed out and released: free, barring a race we accept in tests. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface Child {
  proc: ChildProcess;
  output: string[];
}

function start(script: string, env: Record<string, string>): Child {
  const proc = spawn(process.execPath, [path.join(ROOT, script)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  return { proc, output };
}

async function waitFor(url: string, child: Child, what: string, timeoutMs = 15000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.proc.exitCode !== null) throw new Error(`${what} exited with ${child.proc.exitCode}:\n${child.output.join('')}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url} within ${timeoutMs} ms:\n${child.output.join('')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stop(child: Child | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.proc.once('exit', () => resolve()));
  child.proc.kill(signal);
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/** What one browser context saw, for the "nothing went wrong" assertions. */
export interface Watch {
  consoleErrors: string[];
  cspViolations: string[];
  requests: string[];
}

export class Stack {
  appUrl = '';
  providerUrl = '';
  browser!: Browser;
  private app?: Child;
  private provider?: Child;
  private providerPort = 0;
  private contexts: BrowserContext[] = [];

  async start(): Promise<void> {
    const [appPort, providerPort] = await Promise.all([freePort(), freePort()]);
    this.providerPort = providerPort;
    this.appUrl = `http://127.0.0.1:${appPort}`;
    this.providerUrl = `http://127.0.0.1:${providerPort}`;
    this.browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    await this.startProvider();
    this.app = start('dist/server.js', {
      PORT: String(appPort),
      BASE_URL: this.appUrl,
      FB_APP_ID: APP_ID,
      FB_APP_SECRET: APP_SECRET,
      FB_AUTH_URL: this.providerUrl,
      FB_GRAPH_URL: this.providerUrl,
      SESSION_SECRET,
      LOG_LEVEL: 'warn',
      PROVIDER_TIMEOUT_MS: '1500',
    });
    await waitFor(`${this.appUrl}/healthz`, this.app, 'the app');
  }

  /** Starts (or restarts, on the same port) the emulator process. */
  async startProvider(): Promise<void> {
    this.provider = start('packages/graph-emulator/dist/main.js', {
      PROVIDER_PORT: String(this.providerPort),
      FB_APP_ID: APP_ID,
      FB_APP_SECRET: APP_SECRET,
      BASE_URL: this.appUrl,
    });
    await waitFor(`${this.providerUrl}/__emulator/seed`, this.provider, 'the emulator');
  }

  /** Kills the emulator outright, as a crash would. */
  async killProvider(): Promise<void> {
    await stop(this.provider, 'SIGKILL');
  }

  async stop(): Promise<void> {
    await Promise.all(this.contexts.map((c) => c.close().catch(() => undefined)));
    await this.browser?.close().catch(() => undefined);
    await Promise.all([stop(this.app), stop(this.provider)]);
  }

  /** POSTs to one of the emulator's test controls (/__emulator/*). */
  async control(pathname: string, body: unknown = {}): Promise<unknown> {
    const res = await fetch(`${this.providerUrl}/__emulator${pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`emulator control ${pathname} answered ${res.status}: ${await res.text()}`);
    return res.status === 204 ? undefined : res.json();
  }

  /** A fresh, isolated browser (its own cookies) with every page watched. */
  async context(viewport = { width: 1280, height: 800 }): Promise<{ context: BrowserContext; watch: Watch }> {
    const context = await this.browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'UTC' });
    this.contexts.push(context);
    const watch: Watch = { consoleErrors: [], cspViolations: [], requests: [] };
    await context.exposeBinding('__e2eReportCsp', (source, text: string) => {
      watch.cspViolations.push(`${source.page.url()}: ${text}`);
    });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const report = (window as unknown as { __e2eReportCsp: (t: string) => void }).__e2eReportCsp;
        report(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
      });
    });
    context.on('request', (req) => watch.requests.push(req.url()));
    context.on('page', (page) => watchPage(page, watch));
    return { context, watch };
  }
}

function watchPage(page: Page, watch: Watch): void {
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // A page the app serves with an error status (401, 502…) is logged by Chromium as a failed
    // load of the document itself; the tests assert that status, so only other errors count.
    const ownStatus = msg.text().startsWith('Failed to load resource: the server responded with a status of') && msg.location().url === page.url();
    if (!ownStatus) watch.consoleErrors.push(`${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => watch.consoleErrors.push(`${page.url()}: uncaught ${err.message}`));
}

/** Serious and critical axe violations, one line each, for a readable failure. */
export async function axeProblems(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 5)
          .join(', ')}`,
    );
}

/** Every host the browser talked to is loopback. */
export function offLoopback(urls: string[]): string[] {
  return urls.filter((u) => {
    if (u.startsWith('data:') || u.startsWith('about:')) return false;
    const host = new URL(u).hostname;
    return host !== '127.0.0.1' && host !== 'localhost';
  });
}
