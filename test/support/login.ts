/**
 * The one login driver: app → dialog → callback → picker → connect → page, as
 * a person does it. It speaks to a `Browser`, so the same steps run over
 * supertest (the app in process) and over fetch (a listening app, one cookie
 * jar per person).
 */
import type { Agent } from './stack';
import { CookieClient } from './cookie-client';
import { completeDialog, type DialogChoice } from './dialog';
import { csrfToken, forms } from './dom';

/** One answer, read the same whichever client fetched it; `raw` is the client's own response. */
export interface Reply<Raw = unknown> {
  status: number;
  location: string | undefined;
  text: string;
  raw: Raw;
}

/** What the driver needs of a client: GET and a form POST, keeping cookies, never following redirects. */
export interface Browser<Raw = unknown> {
  get(path: string): Promise<Reply<Raw>>;
  post(path: string, form: Record<string, string>): Promise<Reply<Raw>>;
}

type SupertestResponse = Awaited<ReturnType<Agent['get']>>;

/** The supertest adapter: the app in process, the agent's cookie jar. */
export function overSupertest(agent: Agent): Browser<SupertestResponse> {
  const reply = (res: SupertestResponse): Reply<SupertestResponse> => ({
    status: res.status,
    location: res.headers.location,
    text: res.text,
    raw: res,
  });
  return {
    get: async (path) => reply(await agent.get(path)),
    post: async (path, form) => reply(await agent.post(path).type('form').send(form)),
  };
}

/** The fetch adapter: a listening app over real HTTP, the client's cookie jar. */
export function overFetch(client: CookieClient): Browser<Response> {
  const reply = async (res: Response): Promise<Reply<Response>> => ({
    status: res.status,
    location: res.headers.get('location') ?? undefined,
    text: await res.text(),
    raw: res,
  });
  return {
    get: async (path) => reply(await client.get(path)),
    post: async (path, form) => reply(await client.post(path, form)),
  };
}

/** The callback URL as a path, for a client that resolves paths against the app. */
export function pathOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/** The CSRF token of the page's forms; throws when the page has none. */
export function csrfFrom(html: string): string {
  const token = csrfToken(html);
  if (!token) throw new Error(`no CSRF token in the page: ${html.slice(0, 200)}`);
  return token;
}

/**
 * Signs in through any `Browser` (supertest or fetch): GET /auth/login, the dialog, Continue (or the choice's
 * action), and the callback. Returns the callback's answer; `signIn` in flow.ts is this over supertest.
 */
export async function signInThrough<Raw>(browser: Browser<Raw>, choice: DialogChoice = {}): Promise<Reply<Raw>> {
  const start = await browser.get('/auth/login');
  if (start.status !== 303 || !start.location) throw new Error(`GET /auth/login answered ${start.status}`);
  return browser.get(pathOf(await completeDialog(start.location, choice)));
}

export interface LoginOutcome {
  ok: boolean;
  /** The step that went wrong (`login`, `callback`, `picker`, `csrf`, `connect`, `page`), or `done`. */
  step: string;
  status?: number;
  /** What the failing step answered, to say why. */
  text?: string;
  /** The CSRF token of the picker, for the form posts that follow (logout). */
  csrf?: string;
  /** The <h1> of the page the session finally saw (after `view`). */
  pageName?: string;
  /** Page ids the picker offered this session. */
  offered: string[];
}

/**
 * Signs in and connects `pageId` through any `Browser`, and with `view` opens the page itself.
 * Never throws on an answer (unlike `signInAndConnect` in flow.ts): the outcome names the step that failed, so load
 * tests can count failures and suites can assert on them.
 */
export async function signInAndConnectThrough<Raw>(
  browser: Browser<Raw>,
  pageId: string,
  choice: DialogChoice = {},
  view = false,
): Promise<LoginOutcome> {
  const offered: string[] = [];
  const fail = (step: string, reply?: Reply<Raw>): LoginOutcome => ({
    ok: false,
    step,
    ...(reply ? { status: reply.status, text: reply.text } : {}),
    offered,
  });
  const start = await browser.get('/auth/login');
  if (start.status !== 303 || !start.location) return fail('login', start);
  const done = await browser.get(pathOf(await completeDialog(start.location, choice)));
  if (done.status !== 303) return fail('callback', done);
  const picker = await browser.get('/pages');
  if (picker.status !== 200) return fail('picker', picker);
  offered.push(...forms(picker.text).flatMap((f) => /^\/pages\/(\d+)\/connect$/.exec(f.action ?? '')?.[1] ?? []));
  const csrf = csrfToken(picker.text);
  if (!csrf) return fail('csrf');
  const connect = await browser.post(`/pages/${pageId}/connect`, { _csrf: csrf });
  if (connect.status !== 303) return fail('connect', connect);
  if (!view) return { ok: true, step: 'done', csrf, offered };
  const page = await browser.get(`/pages/${pageId}`);
  if (page.status !== 200) return fail('page', page);
  // A load driver (hundreds of sign-ins at once, and the bench): parsing a whole page costs tens of ms of the
  // process the app runs in, which the load would then measure, so the name alone is read from the markup.
  // eslint-disable-next-line no-restricted-syntax
  const pageName = /<h1[^>]*>([^<]*)<\/h1>/.exec(page.text)?.[1];
  return { ok: true, step: 'done', csrf, pageName, offered };
}

/**
 * One person's whole flow over real HTTP with their own cookie jar: login, pick, connect, view.
 * `user` is the seeded person to sign in as at the dialog; the first offered when undefined.
 */
export function realLogin(
  base: string,
  user: string | undefined,
  pageId: string,
  browser = new CookieClient(base),
  /** Permissions to untick at the dialog. */
  decline: string[] = [],
): Promise<LoginOutcome> {
  return signInAndConnectThrough(
    overFetch(browser),
    pageId,
    { ...(user === undefined ? {} : { user }), decline },
    true,
  );
}

/** A person connected to `pageId` over real HTTP, or an error naming the step that failed. */
export async function connectedClient(base: string, pageId: string, user?: string): Promise<CookieClient> {
  const client = new CookieClient(base);
  const outcome = await realLogin(base, user, pageId, client);
  if (!outcome.ok) throw new Error(`login failed at ${outcome.step} (${outcome.status ?? '-'})`);
  return client;
}
