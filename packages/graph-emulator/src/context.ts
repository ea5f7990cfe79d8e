/**
 * Everything one emulator instance holds: options, data, issued credentials
 * and test-control state. Built once per `createEmulator`; nothing is global,
 * so several emulators can run side by side in one test process.
 */
import { randomBytes } from 'node:crypto';
import { CallbackLog } from './callbacks/deliver';
import { DEFAULT_APP_VERSION, VERSION_RE } from './respond';
import { Faults } from './faults';
import { RequestLog } from './log';
import { isSeedName, SEEDS, type Seed, type SeedName } from './seed';
import { CodeStore } from './store/codes';
import { DataStore } from './store/data';
import { DialogStore } from './store/dialogs';
import { TokenStore } from './store/tokens';
import { UsageMeter } from './graph/usage';
import { DEFAULT_CONFIGURATIONS, isKnownPermission } from './permissions';
import { IdTokenSigner } from './oidc/signer';
import {
  EMULATOR_PROFILES,
  type EmulatorClient,
  type EmulatorOptions,
  type EmulatorProfile,
  type LoginConfiguration,
} from './types';
import { Activity } from './activity';
import { Clock } from './clock';
import { checkRemovedFields, RemovedFields } from './removed-fields';
import { MediaSigner } from './media/sign';
import { Uploads } from './media/uploads';
import { checkCreated, defaultCreated } from './graph/legacy';
import { DEFAULT_RETRY_DELAYS_MS, Webhooks } from './webhooks/webhooks';

export interface Context {
  clients: ReadonlyMap<string, EmulatorClient>;
  profile: EmulatorProfile;
  /** Signs ID tokens (issuer: `publicUrl`) and serves their JWKS. */
  signer: IdTokenSigner;
  codeTtlMs: number;
  userTokenTtlSec: number;
  longLivedTtlSec: number;
  initialLatencyMs: number;
  /** Origin of the emulator's own links; `startEmulator` sets it once the port is known. */
  publicUrl: string;
  /** The port it listens on, once known: the controls accept only a loopback Host with this port. */
  port: number | undefined;
  /** Host names besides loopback it answers as its own (the `hosts` option), lower case. */
  hosts: ReadonlySet<string>;
  /** The emulator's clock, which a test can move forward (`moveClock`); `now` reads it. */
  clock: Clock;
  now: () => number;
  /** What unversioned calls run at (the app's dashboard version). */
  appVersion: string;
  /** Page fields the provider removed (README#removed-fields). */
  removedFields: RemovedFields;
  /** Login for Business configurations by id. */
  configurations: ReadonlyMap<string, LoginConfiguration>;
  /** Default and largest `/me/accounts` page. */
  accountsPageSize: number;
  /** Feed positions where a page comes back empty once with `next` (`setEmptyFeedPages`), and the option's. */
  emptyFeedPages: readonly number[];
  initialEmptyFeedPages: readonly number[];
  data: DataStore;
  /** The loaded seed's name; `custom` for a `Seed` given as an option. */
  seedName: SeedName | 'custom';
  tokens: TokenStore;
  codes: CodeStore;
  dialogs: DialogStore;
  faults: Faults;
  usage: UsageMeter;
  log: RequestLog;
  /** Signed callbacks sent to apps (removing an app), and the timeout of one. */
  callbacks: CallbackLog;
  callbackTimeoutMs: number;
  /** Per-instance key of the settings page's form tokens. */
  formKey: Buffer;
  webhooks: Webhooks;
  activity: Activity;
  /** Signs and checks the picture URLs Graph answers hand out (README#pictures). */
  media: MediaSigner;
  /** Pictures Pages uploaded, on the image host; cleared with the seed (docs/reference.md#publishing). */
  uploads: Uploads;
  /** When this emulator was made: the insights' day 0 (README#insights). */
  startedAt: number;
  /** Each registered app's creation day (`setAppCreated`), and the options' (README#legacy-features). */
  appCreated: Map<string, string>;
  initialAppCreated: ReadonlyMap<string, string>;
  /** Metrics a test made the provider refuse, as if it had just retired them; cleared by `reset`. */
  refusedMetrics: Set<string>;
}

export function createContext(opts: EmulatorOptions): Context {
  const clock = new Clock(opts.now ?? Date.now);
  const now = clock.now;
  const codeTtlMs = positive('codeTtlMs', opts.codeTtlMs ?? 10 * 60_000);
  const initialLatencyMs = nonNegative('latencyMs', opts.latencyMs ?? 0);
  const faults = new Faults();
  faults.latencyMs = initialLatencyMs;
  const clients = clientMap(opts.clients);
  const seedName = seedNameOf(opts.seed);
  const data = new DataStore(seedName === 'custom' ? (opts.seed as Seed) : SEEDS[seedName], now());
  const webhooks = webhooksFor(opts, clients, now);
  const appCreated = new Map(
    [...clients.values()].map((c) => [
      c.clientId,
      c.created === undefined
        ? defaultCreated(now())
        : checkCreated(`createEmulator: created of client ${c.clientId}`, c.created),
    ]),
  );
  const emptyFeedPages = feedPositions(
    'createEmulator: emptyFeedPages',
    opts.emptyFeedPages ?? DEFAULT_EMPTY_FEED_PAGES,
  );
  const activity = new Activity(data, webhooks, now);
  // A seed's scheduled posts go live on the emulator's clock.
  activity.arm();
  return {
    clients,
    profile: profileOf(opts.profile),
    signer: new IdTokenSigner(),
    codeTtlMs,
    userTokenTtlSec: positive('userTokenTtlSec', opts.userTokenTtlSec ?? 7200),
    longLivedTtlSec: positive('longLivedTtlSec', opts.longLivedTtlSec ?? 60 * 24 * 3600),
    initialLatencyMs,
    publicUrl: publicOrigin(opts.publicUrl ?? 'http://localhost'),
    port: undefined,
    hosts: hostNames(opts.hosts ?? []),
    clock,
    now,
    appVersion: appVersionOf(opts.appVersion),
    removedFields: new RemovedFields(checkRemovedFields(opts.removedFields ?? [], 'createEmulator: removedFields')),
    configurations: configurationMap(opts.configurations ?? DEFAULT_CONFIGURATIONS),
    accountsPageSize: Math.floor(positive('accountsPageSize', opts.accountsPageSize ?? 10)),
    emptyFeedPages,
    initialEmptyFeedPages: emptyFeedPages,
    data,
    seedName,
    tokens: new TokenStore(now),
    codes: new CodeStore(codeTtlMs, now),
    dialogs: new DialogStore(now),
    faults,
    usage: new UsageMeter(now),
    log: new RequestLog(),
    callbacks: new CallbackLog(),
    callbackTimeoutMs: positive('callbackTimeoutMs', opts.callbackTimeoutMs ?? 5000),
    formKey: randomBytes(32),
    webhooks,
    activity,
    media: new MediaSigner(),
    uploads: new Uploads(),
    startedAt: now(),
    refusedMetrics: new Set(),
    appCreated: new Map(appCreated),
    initialAppCreated: appCreated,
  };
}

function webhooksFor(opts: EmulatorOptions, clients: Map<string, EmulatorClient>, now: () => number): Webhooks {
  const given = opts.webhooks ?? {};
  const retryDelaysMs = given.retryDelaysMs ?? [...DEFAULT_RETRY_DELAYS_MS];
  if (!Array.isArray(retryDelaysMs) || retryDelaysMs.length > 20 || retryDelaysMs.some((d) => !(d >= 0))) {
    throw new Error('createEmulator: webhooks.retryDelaysMs must be at most 20 delays ≥ 0');
  }
  const webhooks = new Webhooks(
    clients,
    {
      timeoutMs: positive('webhooks.timeoutMs', given.timeoutMs ?? 20_000),
      retryDelaysMs,
      batchMs: nonNegative('webhooks.batchMs', given.batchMs ?? 0),
    },
    now,
  );
  for (const client of clients.values()) {
    if (client.webhookUrl !== undefined) {
      webhooks.preset(client.clientId, { url: client.webhookUrl, verifyToken: client.webhookVerifyToken ?? '' });
    }
  }
  return webhooks;
}

/** An absolute http(s) URL without a fragment, like the dashboard's "Callback URL" field. */
export function checkWebhookUrl(url: string, what: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${what} is not an absolute URL`);
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || url.includes('#')) {
    throw new Error(`${what} must be http(s) without a fragment`);
  }
}

/** Fail fast on a registration the real provider would not accept either. */
function clientMap(clients: readonly EmulatorClient[]): Map<string, EmulatorClient> {
  // Checked as unknown: `Array.isArray` would narrow a readonly array to any[].
  const given: unknown = clients;
  if (!Array.isArray(given) || clients.length === 0) {
    throw new Error('createEmulator: register at least one client in `clients`');
  }
  const map = new Map<string, EmulatorClient>();
  for (const client of clients) {
    const { clientId, clientSecret, redirectUri, name } = client;
    if (!clientId || !clientSecret || !name) {
      throw new Error('createEmulator: every client needs clientId, clientSecret and name');
    }
    if (map.has(clientId)) throw new Error(`createEmulator: client ${clientId} is registered twice`);
    let url: URL;
    try {
      url = new URL(redirectUri);
    } catch {
      throw new Error(`createEmulator: redirectUri of client ${clientId} is not an absolute URL`);
    }
    // RFC 6749 §3.1.2: an absolute URI without a fragment.
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || redirectUri.includes('#')) {
      throw new Error(`createEmulator: redirectUri of client ${clientId} must be http(s) without a fragment`);
    }
    for (const field of ['deauthorizeUrl', 'dataDeletionUrl'] as const) {
      if (client[field] !== undefined) callbackUrl(clientId, field, client[field]);
    }
    if (client.webhookUrl !== undefined)
      checkWebhookUrl(client.webhookUrl, `createEmulator: webhookUrl of client ${clientId}`);
    map.set(clientId, { ...client });
  }
  return map;
}

/** Registered like the redirect URI: an absolute http(s) URL without a fragment. */
function callbackUrl(clientId: string, field: string, raw: unknown): void {
  let url: URL | undefined;
  try {
    url = typeof raw === 'string' ? new URL(raw) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || String(raw).includes('#')) {
    throw new Error(
      `createEmulator: ${field} of client ${clientId} must be an absolute http(s) URL without a fragment`,
    );
  }
}

/** A seed's name, or `custom` for a data set of the caller's; anything else fails fast. */
function seedNameOf(seed: EmulatorOptions['seed']): SeedName | 'custom' {
  if (seed === undefined) return 'demo';
  // Checked as unknown: a caller in plain JavaScript may pass anything.
  const given: unknown = seed;
  if (typeof given === 'string') {
    if (!isSeedName(given)) {
      throw new Error(`createEmulator: seed must be "demo", "test" or a Seed, got "${given.slice(0, 20)}"`);
    }
    return given;
  }
  if (seed === null || typeof seed !== 'object' || !Array.isArray(seed.users) || !Array.isArray(seed.pages)) {
    throw new Error('createEmulator: seed must be "demo", "test" or a Seed ({ users, pages })');
  }
  return 'custom';
}

function profileOf(profile: EmulatorProfile | undefined): EmulatorProfile {
  if (profile === undefined) return 'facebook';
  if (!EMULATOR_PROFILES.includes(profile)) {
    throw new Error(`createEmulator: profile must be one of ${EMULATOR_PROFILES.join(', ')}`);
  }
  return profile;
}

/** Where the feed comes back empty once by default: the page that would start at post 50. */
export const DEFAULT_EMPTY_FEED_PAGES: readonly number[] = [50];

/** At most 100 positions, each a whole number (0: the first page). */
export function feedPositions(what: string, positions: readonly number[]): readonly number[] {
  const given: unknown = positions;
  if (
    !Array.isArray(given) ||
    given.length > 100 ||
    !given.every((p) => Number.isInteger(p) && (p as number) >= 0 && (p as number) <= 1_000_000)
  ) {
    throw new Error(`${what} must be at most 100 whole numbers from 0 to 1000000`);
  }
  return Object.freeze([...new Set(given as number[])].sort((a, b) => a - b));
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`createEmulator: ${name} must be a positive number`);
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`createEmulator: ${name} must be ≥ 0`);
  return value;
}

/** An http(s) origin, without a trailing slash. */
export function publicOrigin(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('createEmulator: publicUrl must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error('createEmulator: publicUrl must be http(s)');
  return url.origin;
}

function appVersionOf(value: string | undefined): string {
  if (value === undefined) return DEFAULT_APP_VERSION;
  if (!VERSION_RE.test(value)) throw new Error('createEmulator: appVersion must look like v23.0');
  return value;
}

function configurationMap(list: readonly LoginConfiguration[]): Map<string, LoginConfiguration> {
  const map = new Map<string, LoginConfiguration>();
  for (const c of list) {
    if (!/^\d{1,32}$/.test(c.id)) throw new Error('createEmulator: a configuration id must be numeric');
    if (!c.permissions.every(isKnownPermission))
      throw new Error(`createEmulator: configuration ${c.id} names an unknown permission`);
    map.set(c.id, { ...c, permissions: [...c.permissions] });
  }
  return map;
}

/** The `hosts` option: plain DNS names (a container's service name), checked so a typo fails at start. */
function hostNames(given: readonly string[]): ReadonlySet<string> {
  for (const name of given) {
    if (!/^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*$/i.test(name)) {
      throw new Error(`createEmulator: hosts: "${name.slice(0, 80)}" is not a host name`);
    }
  }
  return new Set(given.map((name) => name.toLowerCase()));
}
