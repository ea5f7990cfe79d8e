/**
 * The browser suite's stage: the built app and the provider emulator as two
 * separate processes on free loopback ports, and real Chromium driving them.
 * Every browser context is watched: console errors, uncaught exceptions, CSP
 * violations and every URL requested are recorded for the tests to assert on.
 */
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { SEED_IDS, type SeedName } from '@pagelight/graph-emulator';
import { control, loadSeed } from '../support/emulator';
import {
  freePort,
  startAppProcess,
  startEmulatorProcess,
  stop,
  type AppCredentials,
  type Child,
} from '../support/processes';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromiumPath } = require('./chromium') as { chromiumPath: () => string };

export const APP_ID = '1234567890123456';
const CREDENTIALS: AppCredentials = {
  appId: APP_ID,
  appSecret: 'e2e-app-secret-not-for-production',
  sessionSecret: 'e2e-session-secret-of-at-least-32-characters',
};

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
  private seed: SeedName;

  /**
   * @param appEnv variables the app process starts with besides the harness's own (e.g. FB_PKCE).
   * @param providerEnv likewise for the emulator process (e.g. FB_WEBHOOK_VERIFY_TOKEN).
   * @param options.seed the emulator's data: `test` (default), the hostile payloads the suites
   *   assert on, or `demo`, the realistic content people see (screens and screenshots).
   */
  constructor(
    private readonly appEnv: Record<string, string> = {},
    private readonly providerEnv: Record<string, string> = {},
    options: { seed?: SeedName } = {},
  ) {
    this.seed = options.seed ?? 'test';
  }

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
    // The app's own wait for Facebook (PROVIDER_TIMEOUT_MS, 5 s) unless a suite sets one: a shorter wait made a
    // slow moment of a shared machine read as "Facebook didn't answer" and left a login on the callback.
    this.app = await startAppProcess(appPort, this.providerUrl, CREDENTIALS, this.appEnv);
  }

  /** Starts (or restarts, on the same port) the emulator process. */
  async startProvider(): Promise<void> {
    this.provider = await startEmulatorProcess(this.providerPort, this.appUrl, CREDENTIALS, {}, this.providerEnv);
    // Through the seed control, as any test driving a separate emulator would (again after a restart).
    await loadSeed(this.providerUrl, this.seed);
  }

  /** Switches the emulator's data (and resets it, as `/__emulator/reset` does); kept across a provider restart. */
  async loadSeed(name: SeedName): Promise<void> {
    this.seed = name;
    await loadSeed(this.providerUrl, name);
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
  control(pathname: string, body: unknown = {}): Promise<unknown> {
    return control(this.providerUrl, 'POST', pathname, body);
  }

  /** A fresh, isolated browser (its own cookies) with every page watched, set to `locale` (its Accept-Language too). */
  async context(
    viewport = { width: 1280, height: 800 },
    locale = 'en-GB',
  ): Promise<{ context: BrowserContext; watch: Watch }> {
    const context = await this.browser.newContext({ viewport, locale, timezoneId: 'UTC' });
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
    context.on('page', (page) => watchPage(page, watch, this.providerUrl));
    return { context, watch };
  }
}

function watchPage(page: Page, watch: Watch, providerUrl: string): void {
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const failedLoad = msg.text().startsWith('Failed to load resource: the server responded with a status of');
    // A page the app serves with an error status (401, 502…) is logged by Chromium as a failed
    // load of the document itself; the tests assert that status, so only other errors count.
    const ownStatus = failedLoad && msg.location().url === page.url();
    // A picture URL past its expiry answers 403, as the provider's CDN does: normal, and the
    // page shows its fallback (docs/provider-interface.md#image-urls). Chromium (156) does not report
    // a failed image as a console error today; should it start to, only this 403 is let through.
    const expiredPicture =
      failedLoad && msg.text().includes('status of 403') && msg.location().url.startsWith(`${providerUrl}/media/`);
    if (!ownStatus && !expiredPicture) watch.consoleErrors.push(`${page.url()}: ${msg.text()}`);
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

/**
 * The flow most suites start from, as a person does it in English: home → Connect page → continue as Ada
 * Lovelace at the emulator's dialog → Connect the bakery on the picker → the bakery's page.
 */
export async function connectAdaToBakery(page: Page, stack: Stack): Promise<void> {
  await page.goto(`${stack.appUrl}/`);
  await page.getByRole('link', { name: 'Connect page' }).click();
  await page.getByRole('radio', { name: /Ada Lovelace/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Connect Lovelace Analytical Bakery' }).click();
  await page.waitForURL(`${stack.appUrl}/pages/${SEED_IDS.pages.bakery}`);
}

/** The screens of {@link walkConnected}, in its order, named as the screenshots' files are. */
export type ConnectedStop = 'dialog-pages' | 'picker' | 'page' | 'insights' | 'older-posts' | 'home-connected';

/**
 * The walk the screen suites share (screenshots, a11y), from the emulator's dialog: Ada's Pages at the dialog → the
 * picker → the bakery's page → its insights → its older posts → home, connected. `at` looks at each screen on the
 * way, in order; what it opens or scrolls there is its own.
 */
export async function walkConnected(
  page: Page,
  stack: Stack,
  at: (stop: ConnectedStop) => Promise<void>,
): Promise<void> {
  const bakery = `${stack.appUrl}/pages/${SEED_IDS.pages.bakery}`;
  await page.getByRole('radio', { name: /Ada Lovelace/ }).check();
  await at('dialog-pages');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${stack.appUrl}/pages`);
  await at('picker');
  await page.getByRole('button', { name: 'Connect Lovelace Analytical Bakery' }).click();
  await page.waitForURL(bakery);
  await at('page');
  await page.getByRole('link', { name: 'Insights' }).click();
  await page.waitForURL(`${bakery}/insights`);
  await at('insights');
  await page.goto(bakery);
  await page.getByRole('link', { name: 'Older posts' }).click();
  await page.waitForURL(/\/feed\?after=/);
  await at('older-posts');
  await page.goto(`${stack.appUrl}/`);
  await at('home-connected');
}

/**
 * A change at the provider reaching an open page, as a person sees it: after `change`, the live notice named
 * `notice` appears within `withinMs`, and clicking it shows `shown` in place, with no navigation. The notice.
 */
export async function shownInPlace(
  page: Page,
  change: () => Promise<unknown>,
  notice: string,
  shown: string,
  withinMs: number,
): Promise<Locator> {
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => navigations.push(frame.url()));
  await change();
  const button = page.getByRole('button', { name: notice });
  await button.waitFor({ state: 'visible', timeout: withinMs });
  await button.click();
  await page.getByText(shown).waitFor({ timeout: withinMs });
  expect(navigations).toEqual([]);
  return button;
}

/** Every host the browser talked to is loopback. */
export function offLoopback(urls: string[]): string[] {
  return urls.filter((u) => {
    if (u.startsWith('data:') || u.startsWith('about:')) return false;
    const host = new URL(u).hostname;
    return host !== '127.0.0.1' && host !== 'localhost';
  });
}

/** One browser context per test, on `stack`: what a suite's tests share. */
export interface Browsing {
  context: BrowserContext;
  watch: Watch;
  page: Page;
}

/**
 * Registers the hooks every browser suite needs: the stack started once, a
 * fresh context and page per test, and after each test the checks that hold
 * whatever the scenario — nothing broke the CSP, logged an error, or left
 * loopback (tokens and pages stay on the server). Read the current context
 * and page from the returned object inside a test.
 */
export function browsing(stack: Stack, options: { locale?: string } = {}): Browsing {
  const current = {} as Browsing;
  beforeAll(() => stack.start());
  afterAll(() => stack.stop());
  beforeEach(async () => {
    const { context, watch } = await stack.context(undefined, options.locale);
    Object.assign(current, { context, watch, page: await context.newPage() });
  });
  afterEach(async () => {
    await current.context.close();
    expect(current.watch.cspViolations).toEqual([]);
    expect(current.watch.consoleErrors).toEqual([]);
    expect(offLoopback(current.watch.requests)).toEqual([]);
  });
  return current;
}
