/**
 * Configuration of the stand-alone emulator (`npm run provider`, see its README),
 * from the same variables the app reads, so both agree on the client.
 */
import { DEFAULT_EMPTY_FEED_PAGES, feedPositions } from './context';
import { appUrls, DEMO_CLIENT, demoClient } from './demo';
import { checkCreated } from './graph/legacy';
import { loopbackAddress } from './hosts';
import { checkRemovedFields } from './removed-fields';
import { isSeedName, SEED_NAMES, type Seed, type SeedName } from './seed';
import { readSeedFile, SeedError } from './seeds/schema';
import { z } from 'zod';
import { failSchema, parseFailure } from './controls/schemas';
import { describeZodError } from './zod-message';
import { EMULATOR_PROFILES, type EmulatorClient, type EmulatorProfile, type Failure } from './types';

export interface ProviderEnv {
  port: number;
  /** EMULATOR_HOST: the address it listens on, loopback unless `expose` (README#production-guard). */
  host: string;
  /** EMULATOR_EXPOSE=on: listening on another address, or a privileged port, is meant. */
  expose: boolean;
  /** EMULATOR_HOSTS: host names besides loopback its pages and controls answer (README#in-a-container). */
  hosts: string[];
  client: EmulatorClient;
  demo: boolean;
  profile: EmulatorProfile;
  /** EMULATOR_ACTIVITY=on: the demo's post generator (README#activity). */
  activity: boolean;
  /** EMULATOR_SEED: `demo` (default), `test`, or a seed file's content (README#seeds). */
  seed: SeedName | Seed;
  /** The seed file EMULATOR_SEED named, when it named one. */
  seedFile?: string;
  /** EMULATOR_EMPTY_FEED_PAGES: feed positions that come back empty once with `next` (README#empty-pages). */
  emptyFeedPages: readonly number[];
  /** EMULATOR_REMOVED_FIELDS: Page fields refused as the provider refuses removed ones (README#removed-fields). */
  removedFields: string[];
  /** EMULATOR_FAIL_NEXT: failures scripted at start, a JSON list like the fail control's bodies (docs/reference.md). */
  failNext: { n?: number; failure: Failure }[];
}

/** A bad value, reported as one line naming the variable. */
export class ProviderEnvError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable} ${problem}`);
    this.name = 'ProviderEnvError';
  }
}

function portOf(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    throw new ProviderEnvError(name, `must be a port number between 1 and 65535, got "${raw.slice(0, 40)}"`);
  }
  return Number(raw);
}

function exposeOf(env: NodeJS.ProcessEnv): boolean {
  const raw = env.EMULATOR_EXPOSE;
  if (raw === undefined || raw === '' || raw === 'off') return false;
  if (raw === 'on') return true;
  throw new ProviderEnvError('EMULATOR_EXPOSE', `must be "on" or "off", got "${raw.slice(0, 20)}"`);
}

/** The production guard: loopback and an unprivileged port, unless EMULATOR_EXPOSE=on says otherwise. */
function hostOf(env: NodeJS.ProcessEnv, port: number, expose: boolean): string {
  const raw = env.EMULATOR_HOST;
  const host = raw === undefined || raw === '' ? '127.0.0.1' : raw;
  if (!/^[0-9a-zA-Z.:-]{1,100}$/.test(host)) {
    throw new ProviderEnvError('EMULATOR_HOST', `must be an IP address or a host name, got "${host.slice(0, 40)}"`);
  }
  if (!expose && !loopbackAddress(host)) {
    throw new ProviderEnvError(
      'EMULATOR_HOST',
      `is ${host}, not a loopback address: the controls have no authentication, so set EMULATOR_EXPOSE=on to listen there anyway`,
    );
  }
  if (!expose && port < 1024) {
    throw new ProviderEnvError(
      'PROVIDER_PORT',
      `is ${port}, a privileged port a real service would hold: set EMULATOR_EXPOSE=on to listen there anyway`,
    );
  }
  return host;
}

function hostsOf(env: NodeJS.ProcessEnv): string[] {
  const names = (env.EMULATOR_HOSTS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = names.find((n) => !/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/i.test(n));
  if (bad !== undefined) {
    throw new ProviderEnvError('EMULATOR_HOSTS', `must list host names separated by commas, got "${bad.slice(0, 40)}"`);
  }
  return names;
}

function baseUrlOf(env: NodeJS.ProcessEnv): string {
  const raw = env.BASE_URL;
  if (raw === undefined || raw === '') return `http://localhost:${portOf(env, 'PORT', 3000)}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProviderEnvError('BASE_URL', `must be an absolute http(s) URL, got "${raw.slice(0, 80)}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProviderEnvError('BASE_URL', 'must start with http:// or https://');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ProviderEnvError('BASE_URL', 'must not have a query or fragment');
  }
  return raw.replace(/\/+$/, '');
}

function profileOf(env: NodeJS.ProcessEnv): EmulatorProfile {
  const raw = env.EMULATOR_PROFILE;
  if (raw === undefined || raw === '') return 'facebook';
  if (!(EMULATOR_PROFILES as readonly string[]).includes(raw)) {
    throw new ProviderEnvError(
      'EMULATOR_PROFILE',
      `must be one of ${EMULATOR_PROFILES.join(', ')}, got "${raw.slice(0, 40)}"`,
    );
  }
  return raw as EmulatorProfile;
}

/** `demo`, `test`, or the path of a seed file (anything with a `/` or ending in `.json`), read and checked now. */
function seedOf(env: NodeJS.ProcessEnv): { seed: SeedName | Seed; seedFile?: string } {
  const raw = env.EMULATOR_SEED;
  if (raw === undefined || raw === '') return { seed: 'demo' };
  if (isSeedName(raw)) return { seed: raw };
  if (!raw.includes('/') && !raw.endsWith('.json')) {
    throw new ProviderEnvError(
      'EMULATOR_SEED',
      `must be one of ${SEED_NAMES.join(', ')} or a seed file's path (./my-seed.json), got "${raw.slice(0, 40)}"`,
    );
  }
  try {
    return { seed: readSeedFile(raw), seedFile: raw };
  } catch (err) {
    if (err instanceof SeedError) throw new ProviderEnvError('EMULATOR_SEED', err.message);
    throw err;
  }
}

function activityOf(env: NodeJS.ProcessEnv): boolean {
  const raw = env.EMULATOR_ACTIVITY;
  if (raw === undefined || raw === '' || raw === 'off') return false;
  if (raw === 'on') return true;
  throw new ProviderEnvError('EMULATOR_ACTIVITY', `must be "on" or "off", got "${raw.slice(0, 20)}"`);
}

/** `50` (the default), `25,50`, or `none`: comma-separated post positions. */
function emptyFeedPagesOf(env: NodeJS.ProcessEnv): readonly number[] {
  const raw = env.EMULATOR_EMPTY_FEED_PAGES;
  if (raw === undefined || raw === '') return DEFAULT_EMPTY_FEED_PAGES;
  if (raw === 'none') return [];
  if (!/^\d{1,7}(,\d{1,7}){0,99}$/.test(raw)) {
    throw new ProviderEnvError(
      'EMULATOR_EMPTY_FEED_PAGES',
      `must be "none" or post positions separated by commas (e.g. 25,50), got "${raw.slice(0, 40)}"`,
    );
  }
  try {
    return feedPositions('EMULATOR_EMPTY_FEED_PAGES', raw.split(',').map(Number));
  } catch {
    throw new ProviderEnvError('EMULATOR_EMPTY_FEED_PAGES', 'must list positions from 0 to 1000000');
  }
}

function removedFieldsOf(env: NodeJS.ProcessEnv): string[] {
  const names = (env.EMULATOR_REMOVED_FIELDS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    return checkRemovedFields(names, 'EMULATOR_REMOVED_FIELDS');
  } catch (err) {
    throw new ProviderEnvError(
      'EMULATOR_REMOVED_FIELDS',
      `must list Page fields such as hours,website: ${(err as Error).message}`,
    );
  }
}

/**
 * EMULATOR_FAIL_NEXT: `[{"n"?: 1, "failure": {…}}, …]`, each as `POST /__emulator/fail` takes it, so a person
 * trying the app sees a refused or late write without a test driving the controls.
 */
function failNextOf(env: NodeJS.ProcessEnv): { n?: number; failure: Failure }[] {
  const raw = env.EMULATOR_FAIL_NEXT;
  if (raw === undefined || raw === '') return [];
  try {
    const list: unknown = JSON.parse(raw);
    if (!Array.isArray(list) || list.length > 20) throw new Error('not a list of at most 20');
    return list.map((item) => {
      const { n, failure, match } = failSchema.parse(item);
      const withMatch = match === undefined ? failure : { ...(failure as object), match };
      return { n, failure: parseFailure(withMatch) };
    });
  } catch (err) {
    const why = err instanceof z.ZodError ? describeZodError(err) : (err as Error).message;
    throw new ProviderEnvError(
      'EMULATOR_FAIL_NEXT',
      `must be a JSON list of fail control bodies: ${why.slice(0, 200)}`,
    );
  }
}

/** EMULATOR_APP_CREATED: the day the app was created (README#legacy-features); unset, a new app. */
function appCreatedOf(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.EMULATOR_APP_CREATED;
  if (raw === undefined || raw === '') return undefined;
  try {
    return checkCreated('EMULATOR_APP_CREATED', raw);
  } catch {
    throw new ProviderEnvError('EMULATOR_APP_CREATED', `must be a day written YYYY-MM-DD, got "${raw.slice(0, 20)}"`);
  }
}

/** EMULATOR_APP_NAME: the registered app's name, shown by the dialog and the settings page; unset, the demo app's. */
function appNameOf(env: NodeJS.ProcessEnv): string {
  const raw = env.EMULATOR_APP_NAME;
  if (raw === undefined || raw === '') return DEMO_CLIENT.name;
  if (raw.length > 100 || [...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    throw new ProviderEnvError('EMULATOR_APP_NAME', 'must be at most 100 characters, without control characters');
  }
  return raw;
}

/** With FB_WEBHOOK_VERIFY_TOKEN set, the app's webhook is registered as its dashboard would have it (README#webhooks). */
function withWebhook(client: EmulatorClient, env: NodeJS.ProcessEnv, baseUrl: string): EmulatorClient {
  const token = env.FB_WEBHOOK_VERIFY_TOKEN;
  if (token === undefined || token === '') return client;
  return { ...client, webhookUrl: `${baseUrl}/webhooks/facebook`, webhookVerifyToken: token };
}

export function loadProviderEnv(env: NodeJS.ProcessEnv): ProviderEnv {
  const port = portOf(env, 'PROVIDER_PORT', 3001);
  const expose = exposeOf(env);
  const host = hostOf(env, port, expose);
  const hosts = hostsOf(env);
  const baseUrl = baseUrlOf(env);
  const profile = profileOf(env);
  const activity = activityOf(env);
  const { seed, seedFile } = seedOf(env);
  const file = seedFile === undefined ? {} : { seedFile };
  const emptyFeedPages = emptyFeedPagesOf(env);
  const removedFields = removedFieldsOf(env);
  const failNext = failNextOf(env);
  const created = appCreatedOf(env);
  const name = appNameOf(env);
  const dated = (client: EmulatorClient): EmulatorClient =>
    created === undefined ? { ...client, name } : { ...client, name, created };
  const appId = env.FB_APP_ID;
  if (appId === undefined || appId === '') {
    const client = dated(withWebhook(demoClient(baseUrl), env, baseUrl));
    return {
      port,
      host,
      expose,
      hosts,
      client,
      demo: true,
      profile,
      activity,
      seed,
      ...file,
      emptyFeedPages,
      removedFields,
      failNext,
    };
  }
  const secret = env.FB_APP_SECRET;
  if (secret === undefined || secret === '') {
    throw new ProviderEnvError('FB_APP_SECRET', 'is required when FB_APP_ID is set');
  }
  return {
    port,
    host,
    expose,
    hosts,
    demo: false,
    profile,
    activity,
    seed,
    ...file,
    emptyFeedPages,
    removedFields,
    failNext,
    client: dated(withWebhook({ clientId: appId, clientSecret: secret, name, ...appUrls(baseUrl) }, env, baseUrl)),
  };
}

/** Enough of the secret to recognise it, never the whole of it. */
export function maskSecret(secret: string): string {
  return `${secret.slice(0, 4)}…`;
}
