/**
 * Drives the emulator in-process (supertest, no listening) through the same
 * steps a browser and an app would take.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import { createEmulator, SEED_IDS, type EmulatorControls, type EmulatorOptions } from '../src';
import { inputsNamed } from './dom';

export const CLIENT = {
  clientId: '1111222233334444',
  clientSecret: 'test-secret-abcdef',
  redirectUri: 'http://app.test/auth/callback',
  name: 'Pagelight test',
};
export const OTHER_CLIENT = {
  clientId: '5555666677778888',
  clientSecret: 'other-secret-123456',
  redirectUri: 'https://other.test/cb?tenant=7',
  name: 'Other app',
};
/** The day before the provider closed the legacy features to new apps: an app created then keeps them (README#legacy-features). */
export const BEFORE_V27 = '2026-11-03';
/** CLIENT as an app created before 2026-11-04, for tests of the legacy features it keeps (method override, aliases). */
export const OLDER_CLIENTS = [{ ...CLIENT, created: BEFORE_V27 }, OTHER_CLIENT];
export const DEFAULT_SCOPE = 'pages_show_list pages_read_engagement pages_read_user_content';
export const { users: USERS, pages: PAGES } = SEED_IDS;

/** A clock tests can move. */
export class Clock {
  constructor(public t = Date.UTC(2026, 9, 1, 12, 0, 0)) {}
  readonly now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface TestEmulator {
  app: Express;
  controls: EmulatorControls;
  clock: Clock;
}

const made = new Set<EmulatorControls>();

/** An emulator on the test seed (the content these tests assert on) unless `opts.seed` says otherwise. */
export function makeEmulator(opts: Partial<EmulatorOptions> = {}): TestEmulator {
  const clock = new Clock();
  const { app, controls } = createEmulator({
    clients: [CLIENT, OTHER_CLIENT],
    now: clock.now,
    seed: 'test',
    ...opts,
  });
  made.add(controls);
  return { app, controls, clock };
}

/** Throws when a scripted failure never fired, then drops it so the next test starts clean. */
export function assertNoPendingFailures(controls: EmulatorControls): void {
  const pending = controls.pendingFailures();
  if (pending.length === 0) return;
  controls.clearFailures();
  throw new Error(`scripted emulator failure(s) never fired: ${JSON.stringify(pending)}`);
}

// Every test that scripted a failure must have made a request that used it.
afterEach(() => {
  const all = [...made];
  made.clear();
  for (const controls of all) assertNoPendingFailures(controls);
});

export interface DialogParams {
  client_id?: string;
  redirect_uri?: string;
  state?: string;
  scope?: string;
  response_type?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  config_id?: string;
  nonce?: string;
  auth_type?: string;
  response_mode?: string;
}

export function dialogQuery(params: DialogParams = {}): Record<string, string> {
  const q: Record<string, string> = {
    client_id: CLIENT.clientId,
    redirect_uri: CLIENT.redirectUri,
    state: 'state-123',
    response_type: 'code',
    scope: DEFAULT_SCOPE,
  };
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) delete q[k];
    else q[k] = v;
  }
  return q;
}

export function requestIdOf(html: string): string {
  const id = inputsNamed(html, 'request_id')[0]?.value;
  if (id === undefined) throw new Error(`no request_id in: ${html.slice(0, 300)}`);
  return id;
}

export interface Decision {
  user?: string;
  /** Permissions left checked; default: all requested. */
  perms?: string[];
  /** Pages left checked at the page step; default: every Page the dialog offers the person. */
  pages?: string[];
  decision?: 'continue' | 'cancel';
}

/** GET of the login dialog (at v23.0) with the test client's query, changed by `params`. */
export function openDialog(app: Express, params: DialogParams = {}) {
  return request(app).get('/v23.0/dialog/oauth').query(dialogQuery(params));
}

/** Opens the dialog and submits it; returns the redirect Location. */
export async function runDialog(app: Express, params: DialogParams = {}, decision: Decision = {}): Promise<string> {
  const q = dialogQuery(params);
  const page = await request(app).get('/v23.0/dialog/oauth').query(q).expect(200);
  const form = new URLSearchParams({ request_id: requestIdOf(page.text), decision: decision.decision ?? 'continue' });
  const user = decision.user ?? USERS.ada;
  form.append('user_id', user);
  const perms = decision.perms ?? (q.scope ?? '').split(/[\s,]+/).filter(Boolean);
  for (const p of perms) form.append(`perm_${user}`, p);
  const offered = inputsNamed(page.text, `page_${user}`).map((input) => input.value!);
  for (const id of decision.pages ?? offered) form.append(`page_${user}`, id);
  const res = await request(app).post('/v23.0/dialog/oauth/decision').type('form').send(form.toString()).expect(302);
  return res.headers.location as string;
}

export async function codeFor(app: Express, params: DialogParams = {}, decision: Decision = {}): Promise<string> {
  const location = await runDialog(app, params, decision);
  const code = new URL(location).searchParams.get('code');
  if (code === null) throw new Error(`no code in ${location}`);
  return code;
}

export function exchange(app: Express, code: string, extra: Record<string, string> = {}) {
  return request(app)
    .post('/v23.0/oauth/access_token')
    .type('form')
    .send({
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
      redirect_uri: CLIENT.redirectUri,
      code,
      ...extra,
    });
}

/** The long-lived token exchange's parameters for `token`, as the test client. */
export function longLivedParams(token: string): Record<string, string> {
  return {
    grant_type: 'fb_exchange_token',
    client_id: CLIENT.clientId,
    client_secret: CLIENT.clientSecret,
    fb_exchange_token: token,
  };
}

/** Full login: dialog → code → user token. */
export async function userToken(app: Express, decision: Decision = {}, params: DialogParams = {}): Promise<string> {
  const res = await exchange(app, await codeFor(app, params, decision)).expect(200);
  return (res.body as { access_token: string }).access_token;
}

/** A Graph GET of `path` carrying `token` as a bearer token (RFC 6750 §2.1). */
export function graphGet(app: Express, path: string, token: string) {
  return request(app).get(path).set('Authorization', `Bearer ${token}`);
}

/** docs/specification.md#page-token: the page token from a user token. */
export async function pageToken(app: Express, user: string, pageId: string): Promise<string> {
  const res = await graphGet(app, `/${pageId}`, user).query({ fields: 'access_token' }).expect(200);
  const token = (res.body as { access_token?: string }).access_token;
  if (token === undefined) throw new Error(`no page token for ${pageId}: ${res.text}`);
  return token;
}

/**
 * Ada's user token and her page token for the bakery, taken before the describe's tests and read inside them: the
 * tokens most suites read the seed with.
 */
export function useBakeryTokens(app: Express): { readonly ada: string; readonly bakery: string } {
  const tokens = { ada: '', bakery: '' };
  beforeAll(async () => {
    tokens.ada = await userToken(app);
    tokens.bakery = await pageToken(app, tokens.ada, PAGES.bakery);
  });
  return tokens;
}

export function proof(token: string, secret = CLIENT.clientSecret): string {
  return createHmac('sha256', secret).update(token).digest('hex');
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface GraphErrorJson {
  error: { message: string; type: string; code: number; error_subcode?: number; fbtrace_id: string };
}

export function graphError(body: unknown): GraphErrorJson['error'] {
  return (body as GraphErrorJson).error;
}
