import { randomBytes } from 'node:crypto';

/**
 * The whole configuration, validated once at start (docs/architecture.md#configuration). Every provider
 * URL comes from here so tests and operators can point the app anywhere.
 */
export interface Config {
  readonly port: number;
  readonly baseUrl: string;
  /** `$BASE_URL/auth/callback`, registered with the provider. */
  readonly callbackUrl: string;
  /** Demo mode: no FB_APP_ID, the embedded emulator is started and wired in. */
  readonly demo: boolean;
  readonly appId: string;
  readonly appSecret: string;
  readonly apiVersion: string;
  readonly authUrl: string;
  readonly graphUrl: string;
  /**
   * Origins whose images the pages show and the CSP's `img-src` lists (FB_IMAGE_ORIGINS); an origin may start
   * its host with `*.` (any subdomain), as a CSP host source does. Demo mode adds the emulator's origin.
   */
  readonly imageOrigins: readonly string[];
  readonly scopes: readonly string[];
  /** Facebook Login for Business: the configuration the dialog logs in with (it holds the permissions). */
  readonly configId: string | undefined;
  /** PKCE on the dialog and the code exchange (FB_PKCE); see docs/architecture.md#configuration. */
  readonly pkce: boolean;
  /** `openid` is among the scopes: a nonce goes to the dialog and the exchange must return a verified id_token. */
  readonly oidc: boolean;
  /** Where the provider publishes the keys that sign its id_tokens (FB_JWKS_URL). */
  readonly jwksUrl: string;
  /** The `iss` its id_tokens must carry: the dialog's origin (FB_AUTH_URL). */
  readonly oidcIssuer: string;
  readonly pageId: string | undefined;
  readonly sessionSecrets: readonly string[];
  readonly sessionSecretGenerated: boolean;
  /** Keys that seal tokens in the session, newest first (TOKEN_ENCRYPTION_KEY, else SESSION_SECRET). */
  readonly tokenKeys: readonly string[];
  readonly sessionStore: 'memory' | 'redis';
  /** Where cached page answers live: this process, or Redis shared by every instance (PAGE_CACHE_STORE, default: SESSION_STORE). */
  readonly pageCacheStore: 'memory' | 'redis';
  readonly redisUrl: string;
  readonly redisPrefix: string;
  readonly providerPort: number;
  /** Demo mode: the embedded emulator posts now and then (EMULATOR_ACTIVITY=on), so a new post arrives live. */
  readonly emulatorActivity: boolean;
  readonly trustProxy: boolean | number | string | undefined;
  readonly secureCookies: boolean;
  /** Idle timeout of a session, seconds. */
  readonly sessionIdleSec: number;
  /** Absolute lifetime of a login, seconds. */
  readonly sessionMaxSec: number;
  /** Timeout of one provider HTTP call, milliseconds. */
  readonly providerTimeoutMs: number;
  /** Seconds a page's details and first feed page are served from the cache; 0 turns it off. */
  readonly pageCacheTtlSec: number;
  /** Connections the server accepts at once; more are closed on arrival. */
  readonly maxConnections: number;
  /** Seconds the list of a person's pages (`/me/accounts`) is kept per user token; 0 turns it off. */
  readonly accountsCacheTtlSec: number;
  /** Provider reads one session may have under way at once; more wait briefly, then get a 429. */
  readonly sessionUpstreamConcurrency: number;
  /** Uncached page requests (older posts, the picker) one session may make per minute. */
  readonly sessionRateLimit: number;
  /** Login starts allowed per client address per minute; 0 turns the limit off. */
  readonly loginRateLimit: number;
  /** Compared with `hub.verify_token` in the provider's webhook handshake; webhooks are off without one (docs/architecture.md#live-updates). */
  readonly webhookVerifyToken: string | undefined;
  /** Open live-update streams one session may hold; more get a 429. */
  readonly liveStreamsPerSession: number;
  /** Open live-update streams this instance holds at once; more get a 429. */
  readonly liveStreamsMax: number;
  /** Seconds between heartbeats on a live-update stream. */
  readonly liveHeartbeatSec: number;
  /** Who runs this instance, for the privacy page; undefined shows a placeholder (docs/architecture.md#configuration). */
  readonly operatorName: string | undefined;
  /** How to reach them (an address or URL), for the privacy page. */
  readonly operatorContact: string | undefined;
  readonly logLevel: string;
  readonly nodeEnv: string;
}

/** A configuration problem, reported as one line naming the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

/**
 * The newest version the provider's changelog lists as available (docs/provider-interface.md#versioning).
 * The one place it is kept: docs and tests read it from here.
 */
export const DEFAULT_API_VERSION = 'v26.0';
/**
 * `pages_show_list` for /me/accounts, `pages_read_engagement` for the page token, the Page's fields
 * and its own posts. `pages_read_user_content` (visitor posts, comments) is not needed by what the app shows
 * (docs/provider-interface.md#permissions).
 */
export const DEFAULT_SCOPES = 'pages_show_list pages_read_engagement';
/** The optional permission that lets the app subscribe a page to webhooks. */
export const SUBSCRIBE_SCOPE = 'pages_manage_metadata';
/** The OpenID Connect scope: the provider honours PKCE only in its OIDC flow (docs/provider-interface.md#pkce). */
export const OPENID_SCOPE = 'openid';
/** Where the provider documents its JWKS, on the dialog's origin. */
export const JWKS_PATH = '/.well-known/oauth/openid/jwks/';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Readonly<Record<string, string | undefined>>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function port(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(name, `must be a port number from 0 to 65535, got "${raw}"`);
  }
  return Number(raw);
}

function positiveInt(env: Env, name: string, fallback: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number from 1 to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function wholeNumber(env: Env, name: string, fallback: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number from 0 to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/** An http(s) origin with no path, query or fragment; returned without a trailing slash. */
function origin(env: Env, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must use http: or https:, got "${url.protocol}"`);
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    throw new ConfigError(
      name,
      `must be an origin such as https://example.com (no path, query or credentials), got "${raw}"`,
    );
  }
  return url.origin;
}

/**
 * The provider's image hosts (docs/architecture.md#configuration): photos and covers come from its CDN,
 * `scontent…fbcdn.net` with a host per region, and profile pictures from `platform-lookaside.fbsbx.com`.
 */
export const DEFAULT_IMAGE_ORIGINS = 'https://*.fbcdn.net https://platform-lookaside.fbsbx.com';

/** A space-separated list of http(s) origins, each host optionally starting with `*.`; lowercased, deduplicated. */
function imageOrigins(env: Env, name: string): string[] {
  const raw = read(env, name) ?? DEFAULT_IMAGE_ORIGINS;
  const out: string[] = [];
  for (const item of raw.split(/\s+/)) {
    const wildcard = /^https?:\/\/\*\./i.test(item);
    let url: URL | undefined;
    try {
      url = new URL(wildcard ? item.replace('*.', 'wildcard.') : item);
    } catch {
      url = undefined;
    }
    const host = url?.hostname.replace(/^wildcard\./, '') ?? '';
    if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      (url.pathname !== '/' && url.pathname !== '') ||
      url.search ||
      url.hash ||
      url.username ||
      url.password ||
      item.includes('*', wildcard ? item.indexOf('*') + 1 : 0) ||
      (wildcard && !host.includes('.')) ||
      // The URL parser lets `;` and `'` through in a host: in a CSP they would end the directive.
      !/^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/.test(host)
    ) {
      throw new ConfigError(
        name,
        `must be space-separated http(s) origins such as https://*.fbcdn.net (no path or query), got "${item.slice(0, 100)}"`,
      );
    }
    const origin = wildcard ? url.origin.replace('//wildcard.', '//*.') : url.origin;
    if (!out.includes(origin)) out.push(origin);
  }
  return out;
}

/** An absolute http(s) URL (a path is allowed), or undefined when unset. */
function httpUrl(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${raw}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.hash) {
    throw new ConfigError(name, `must be an http(s) URL without credentials or fragment, got "${raw}"`);
  }
  return url.toString();
}

function trustProxy(raw: string | undefined): Config['trustProxy'] {
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^\d{1,3}$/.test(raw)) return Number(raw);
  if (!/^[\w.:/, -]+$/.test(raw)) {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be true, false, a hop count or a list of addresses/subnets, got "${raw}"`,
    );
  }
  return raw;
}

function redisUrl(env: Env): string {
  const raw = read(env, 'REDIS_URL') ?? 'redis://127.0.0.1:6379';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('REDIS_URL', 'must be a redis:// or rediss:// URL');
  }
  if ((url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname) {
    throw new ConfigError(
      'REDIS_URL',
      `must be a redis:// or rediss:// URL with a host, got protocol "${url.protocol}"`,
    );
  }
  // The client would otherwise throw "Invalid pathname" at start, naming nothing.
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d{1,5}$/.test(url.pathname)) {
    throw new ConfigError('REDIS_URL', 'the path, when given, must be a database number such as /0');
  }
  return raw;
}

function redisPrefix(raw: string | undefined): string {
  if (raw === undefined) return 'pagelight:sess:';
  if (!/^[\x21-\x7e]{1,100}$/.test(raw)) {
    throw new ConfigError(
      'REDIS_PREFIX',
      'must be 1 to 100 printable characters without spaces, such as "pagelight:sess:"',
    );
  }
  return raw;
}

/**
 * Reads and validates the environment. Throws {@link ConfigError} naming the
 * first bad variable; never returns a half-valid config.
 */
export function loadConfig(env: Env = process.env): Config {
  const appPort = port(env, 'PORT', 3000);
  const baseUrl = origin(env, 'BASE_URL', `http://localhost:${appPort}`);
  const appId = read(env, 'FB_APP_ID');
  const demo = appId === undefined;
  if (appId !== undefined && !/^\d{1,32}$/.test(appId)) {
    throw new ConfigError('FB_APP_ID', "must be the numeric app id from the provider's app dashboard");
  }
  const appSecret = read(env, 'FB_APP_SECRET');
  if (!demo && appSecret === undefined) {
    throw new ConfigError('FB_APP_SECRET', 'is required when FB_APP_ID is set');
  }
  if (appSecret !== undefined && !/^[\x21-\x7e]{8,256}$/.test(appSecret)) {
    throw new ConfigError('FB_APP_SECRET', 'must be 8 to 256 printable characters without spaces');
  }

  const apiVersion = read(env, 'FB_API_VERSION') ?? DEFAULT_API_VERSION;
  if (!/^v\d+\.\d+$/.test(apiVersion)) {
    throw new ConfigError('FB_API_VERSION', `must look like v23.0, got "${apiVersion}"`);
  }

  // The demo runs the OIDC flow (so it exercises PKCE and the id_token against the emulator), and its
  // provider delivers webhooks, so its pages may be subscribed (docs/architecture.md#live-updates).
  const scopes = (
    read(env, 'FB_SCOPES') ?? (demo ? `${OPENID_SCOPE} ${DEFAULT_SCOPES} ${SUBSCRIBE_SCOPE}` : DEFAULT_SCOPES)
  )
    .split(/[\s,]+/)
    .filter(Boolean);
  for (const scope of scopes) {
    if (!/^[a-z_]{1,64}$/.test(scope)) {
      throw new ConfigError('FB_SCOPES', `"${scope}" is not a permission name (lowercase letters and _)`);
    }
  }

  const configId = read(env, 'FB_CONFIG_ID');
  if (configId !== undefined && !/^\d{1,32}$/.test(configId)) {
    throw new ConfigError(
      'FB_CONFIG_ID',
      `must be the numeric configuration id from Facebook Login for Business, got "${configId.slice(0, 40)}"`,
    );
  }
  const pkceRaw = read(env, 'FB_PKCE') ?? (demo ? 'on' : 'off');
  if (pkceRaw !== 'on' && pkceRaw !== 'off') {
    throw new ConfigError('FB_PKCE', `must be "on" or "off", got "${pkceRaw}"`);
  }
  const authUrl = origin(env, 'FB_AUTH_URL', 'https://www.facebook.com');

  const pageId = read(env, 'FB_PAGE_ID');
  if (pageId !== undefined && !/^\d{1,32}$/.test(pageId)) {
    throw new ConfigError('FB_PAGE_ID', `must be a numeric page id, got "${pageId}"`);
  }

  const secretRaw = read(env, 'SESSION_SECRET');
  if (!demo && secretRaw === undefined) {
    throw new ConfigError(
      'SESSION_SECRET',
      'is required when FB_APP_ID is set (32+ random characters; comma-separate old secrets after the new one to rotate)',
    );
  }
  const sessionSecrets = secretRaw
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean) ?? [randomBytes(32).toString('base64url')];
  if (sessionSecrets.some((s) => s.length < 32)) {
    throw new ConfigError('SESSION_SECRET', 'each secret must be at least 32 characters');
  }

  const tokenKeys =
    read(env, 'TOKEN_ENCRYPTION_KEY')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? sessionSecrets;
  if (tokenKeys.length === 0 || tokenKeys.some((k) => k.length < 32)) {
    throw new ConfigError(
      'TOKEN_ENCRYPTION_KEY',
      'each key must be at least 32 characters (comma-separate old keys after the new one)',
    );
  }

  const store = read(env, 'SESSION_STORE') ?? 'memory';
  if (store !== 'memory' && store !== 'redis') {
    throw new ConfigError('SESSION_STORE', `must be "memory" or "redis", got "${store}"`);
  }

  const cacheStore = read(env, 'PAGE_CACHE_STORE') ?? store;
  if (cacheStore !== 'memory' && cacheStore !== 'redis') {
    throw new ConfigError('PAGE_CACHE_STORE', `must be "memory" or "redis", got "${cacheStore}"`);
  }
  // The shared cache uses the session store's Redis connection (docs/architecture.md#shared-cache).
  if (cacheStore === 'redis' && store !== 'redis') {
    throw new ConfigError('PAGE_CACHE_STORE', '"redis" needs SESSION_STORE=redis (it shares that Redis connection)');
  }

  const verifyToken = read(env, 'FB_WEBHOOK_VERIFY_TOKEN');
  if (verifyToken !== undefined && !/^[\x21-\x7e]{8,256}$/.test(verifyToken)) {
    throw new ConfigError('FB_WEBHOOK_VERIFY_TOKEN', 'must be 8 to 256 printable characters without spaces');
  }

  const logLevel = read(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }

  const config: Config = {
    port: appPort,
    baseUrl,
    callbackUrl: `${baseUrl}/auth/callback`,
    demo,
    appId: appId ?? '',
    appSecret: appSecret ?? '',
    apiVersion,
    authUrl,
    graphUrl: origin(env, 'FB_GRAPH_URL', 'https://graph.facebook.com'),
    imageOrigins: imageOrigins(env, 'FB_IMAGE_ORIGINS'),
    scopes,
    configId,
    pkce: pkceRaw === 'on',
    oidc: scopes.includes(OPENID_SCOPE),
    jwksUrl: httpUrl(env, 'FB_JWKS_URL') ?? `${authUrl}${JWKS_PATH}`,
    oidcIssuer: authUrl,
    pageId,
    sessionSecrets,
    sessionSecretGenerated: secretRaw === undefined,
    tokenKeys,
    sessionStore: store,
    pageCacheStore: cacheStore,
    redisUrl: redisUrl(env),
    redisPrefix: redisPrefix(read(env, 'REDIS_PREFIX')),
    providerPort: port(env, 'PROVIDER_PORT', 3001),
    emulatorActivity: onOff(env, 'EMULATOR_ACTIVITY', false),
    trustProxy: trustProxy(read(env, 'TRUST_PROXY')),
    secureCookies: baseUrl.startsWith('https:'),
    sessionIdleSec: positiveInt(env, 'SESSION_IDLE_SECONDS', 2 * 60 * 60, 31 * 24 * 3600),
    sessionMaxSec: positiveInt(env, 'SESSION_MAX_SECONDS', 7 * 24 * 3600, 365 * 24 * 3600),
    providerTimeoutMs: positiveInt(env, 'PROVIDER_TIMEOUT_MS', 5000, 60000),
    pageCacheTtlSec: wholeNumber(env, 'PAGE_CACHE_TTL', 60, 86400),
    maxConnections: positiveInt(env, 'MAX_CONNECTIONS', 1000, 1_000_000),
    accountsCacheTtlSec: wholeNumber(env, 'ACCOUNTS_CACHE_TTL', 30, 3600),
    sessionUpstreamConcurrency: positiveInt(env, 'SESSION_UPSTREAM_CONCURRENCY', 4, 64),
    sessionRateLimit: positiveInt(env, 'SESSION_RATE_LIMIT', 60, 100_000),
    loginRateLimit: wholeNumber(env, 'LOGIN_RATE_LIMIT', 30, 1_000_000),
    // In demo mode a random one, registered with the embedded emulator by src/server.ts.
    webhookVerifyToken: verifyToken ?? (demo ? randomBytes(24).toString('base64url') : undefined),
    liveStreamsPerSession: positiveInt(env, 'LIVE_STREAMS_PER_SESSION', 4, 64),
    liveStreamsMax: positiveInt(env, 'LIVE_STREAMS_MAX', 1000, 1_000_000),
    liveHeartbeatSec: positiveInt(env, 'LIVE_HEARTBEAT_SECONDS', 25, 3600),
    operatorName: printable(env, 'OPERATOR_NAME'),
    operatorContact: printable(env, 'OPERATOR_CONTACT'),
    logLevel,
    nodeEnv: read(env, 'NODE_ENV') ?? 'development',
  };
  return Object.freeze(config);
}

/** Free text shown on a page: at most 200 characters, no control characters. */
function printable(env: Env, name: string): string | undefined {
  const value = read(env, name);
  if (value !== undefined && !/^\P{Cc}{1,200}$/u.test(value)) {
    throw new ConfigError(name, 'must be at most 200 characters, on one line');
  }
  return value;
}

/** The start-up warning when the privacy page would show placeholders outside demo mode. */
export function operatorWarning(config: Pick<Config, 'demo' | 'operatorName' | 'operatorContact'>): string | undefined {
  if (config.demo) return undefined;
  const missing = [
    ...(config.operatorName === undefined ? ['OPERATOR_NAME'] : []),
    ...(config.operatorContact === undefined ? ['OPERATOR_CONTACT'] : []),
  ];
  if (missing.length === 0) return undefined;
  return `${missing.join(' and ')} unset: the privacy page (/privacy) shows "not configured" where they belong; the provider's app review wants them filled in`;
}

/**
 * The start-up warning for an https BASE_URL the app cannot see as https:
 * express-session will not set a Secure cookie on a request it sees as http,
 * so logins would loop. Unset and an explicit `false` are the same case.
 */
export function proxyWarning(config: Pick<Config, 'secureCookies' | 'trustProxy'>): string | undefined {
  if (!config.secureCookies || (config.trustProxy !== undefined && config.trustProxy !== false)) return undefined;
  const was = config.trustProxy === false ? 'false' : 'unset';
  return `BASE_URL is https but TRUST_PROXY is ${was}: if TLS ends at a proxy in front of the app, set TRUST_PROXY (e.g. 1) or the session cookie will not be set`;
}

/** Whether the app sits behind a proxy it trusts (TRUST_PROXY set to anything but false). */
export function behindProxy(config: Pick<Config, 'trustProxy'>): boolean {
  return config.trustProxy !== undefined && config.trustProxy !== false;
}

/**
 * The same config pointed at another provider; used by demo mode once the emulator's port is known.
 * The id_token issuer and JWKS follow `authUrl` unless given.
 */
export function withProvider(
  config: Config,
  provider: {
    appId: string;
    appSecret: string;
    authUrl: string;
    graphUrl: string;
    oidcIssuer?: string;
    jwksUrl?: string;
    /** Where this provider serves its images: added to FB_IMAGE_ORIGINS. */
    imageOrigin?: string;
  },
): Config {
  const { imageOrigin, ...urls } = provider;
  const imageOrigins =
    imageOrigin === undefined || config.imageOrigins.includes(imageOrigin)
      ? config.imageOrigins
      : [...config.imageOrigins, imageOrigin];
  return Object.freeze({
    ...config,
    oidcIssuer: provider.authUrl,
    jwksUrl: `${provider.authUrl}${JWKS_PATH}`,
    ...urls,
    imageOrigins,
  });
}

/** `on` or `off` (unset: the default); anything else names the variable. */
function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(name, `must be "on" or "off", got "${raw.slice(0, 20)}"`);
  return raw === 'on';
}
