import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import {
  DEFAULT_API_VERSION,
  DEFAULT_AUTH_URL,
  DEFAULT_GRAPH_URL,
  DEFAULT_IMAGE_ORIGINS,
  DEFAULT_MEDIA_ORIGINS,
  COMMENTS_SCOPE,
  ENGAGEMENT_SCOPE,
  PUBLISH_SCOPE,
  DEFAULT_SCOPES,
  JWKS_PATH,
  OPENID_SCOPE,
  SUBSCRIBE_SCOPE,
  BUSINESS_SCOPE,
  INSIGHTS_SCOPE,
} from './graph/provider';
import {
  daysLeft,
  NEWEST_KNOWN_VERSION,
  OLDEST_KNOWN_VERSION,
  olderThanKnown,
  VERSION_WARNING_DAYS,
  versionEnd,
} from './graph/versions';

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

/** What a field's check returns instead of a value: the problem, in the words of the one-line error. */
class Problem {
  constructor(readonly text: string) {}
}

/** A variable whose check has more than one thing to say: `parse` returns the value or a {@link Problem}. */
function checked<T>(parse: (raw: string) => T | Problem) {
  return z.string().transform((raw, ctx): T => {
    const out = parse(raw);
    if (!(out instanceof Problem)) return out;
    ctx.issues.push({ code: 'custom', message: out.text, input: raw });
    return z.NEVER;
  });
}

const got = (iss: { input?: unknown }, limit = Infinity): string => `got "${String(iss.input).slice(0, limit)}"`;

function portNumber(fallback: number) {
  return anyPort().default(fallback);
}

function anyPort() {
  return z
    .string()
    .refine((raw) => /^\d{1,5}$/.test(raw) && Number(raw) <= 65535, {
      error: (iss) => `must be a port number from 0 to 65535, ${got(iss)}`,
    })
    .transform(Number);
}

function wholeNumber(min: 0 | 1, max: number, fallback: number) {
  return anyWholeNumber(min, max).default(fallback);
}

/** A whole number whose default depends on other variables (worked out in derive). */
function anyWholeNumber(min: 0 | 1, max: number) {
  return z
    .string()
    .refine((raw) => /^\d{1,10}$/.test(raw) && Number(raw) >= min && Number(raw) <= max, {
      error: (iss) => `must be a whole number from ${min} to ${max}, ${got(iss)}`,
    })
    .transform(Number);
}

function onOff(limit = Infinity) {
  return z
    .enum(['on', 'off'], { error: (iss) => `must be "on" or "off", ${got(iss, limit)}` })
    .transform((value) => value === 'on');
}

const store = z.enum(['memory', 'redis'], { error: (iss) => `must be "memory" or "redis", ${got(iss)}` });

const numericId = (problem: (iss: { input?: unknown }) => string) => z.string().regex(/^\d{1,32}$/, { error: problem });

const printableSecret = z
  .string()
  .regex(/^[\x21-\x7e]{8,256}$/, { error: 'must be 8 to 256 printable characters without spaces' });

/** Free text shown on a page: at most 200 characters, no control characters. */
const oneLine = z.string().regex(/^\P{Cc}{1,200}$/u, { error: 'must be at most 200 characters, on one line' });

/** A comma-separated list of keys, newest first, each 32+ characters. */
function keyList(problem: string) {
  return checked((raw): readonly string[] | Problem => {
    const keys = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return keys.length === 0 || keys.some((k) => k.length < 32) ? new Problem(problem) : keys;
  });
}

/** An http(s) origin with no path, query or fragment; returned without a trailing slash. */
const origin = checked((raw): string | Problem => {
  // "localhost:7120" parses as the scheme "localhost:": show what was given, not that half of it.
  if (/^([\w-]+(\.[\w-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/i.test(raw)) {
    const example = /^(localhost|127\.|\[::1\])/.test(raw) ? `http://${raw}` : `https://${raw}`;
    return new Problem(`must start with http:// or https://, such as ${example}, got "${raw}"`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return new Problem(`must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return new Problem(`must use http: or https:, got "${url.protocol}"`);
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    return new Problem(`must be an origin such as https://example.com (no path, query or credentials), got "${raw}"`);
  }
  return url.origin;
});

/** A space-separated list of http(s) origins, each host optionally starting with `*.`; lowercased, deduplicated. */
const imageOrigins = checked((raw): readonly string[] | Problem => {
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
      return new Problem(
        `must be space-separated http(s) origins such as https://*.fbcdn.net (no path or query), got "${item.slice(0, 100)}"`,
      );
    }
    const found = wildcard ? url.origin.replace('//wildcard.', '//*.') : url.origin;
    if (!out.includes(found)) out.push(found);
  }
  return out;
});

/** Permissions separated by spaces or commas. */
function scopeList(raw: string): readonly string[] | Problem {
  const scopes = raw.split(/[\s,]+/).filter(Boolean);
  const bad = scopes.find((scope) => !/^[a-z_]{1,64}$/.test(scope));
  return bad === undefined ? scopes : new Problem(`"${bad}" is not a permission name (lowercase letters and _)`);
}

/** An absolute http(s) URL (a path is allowed). */
const httpUrl = checked((raw): string | Problem => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return new Problem(`must be an absolute http(s) URL, got "${raw}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.hash) {
    return new Problem(`must be an http(s) URL without credentials or fragment, got "${raw}"`);
  }
  return url.toString();
});

/** A redis:// or rediss:// URL with a host and, at most, a database number. */
const redisUrl = checked((raw): string | Problem => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return new Problem('must be a redis:// or rediss:// URL');
  }
  if ((url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname) {
    return new Problem(`must be a redis:// or rediss:// URL with a host, got protocol "${url.protocol}"`);
  }
  // The client would otherwise throw "Invalid pathname" at start, naming nothing.
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d{1,5}$/.test(url.pathname)) {
    return new Problem('the path, when given, must be a database number such as /0');
  }
  return raw;
});

/** Express `trust proxy`: true, false, a hop count or a list of addresses/subnets. */
const trustProxy = checked((raw): boolean | number | string | Problem => {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^\d{1,3}$/.test(raw)) return Number(raw);
  if (!/^[\w.:/, -]+$/.test(raw)) {
    return new Problem(`must be true, false, a hop count or a list of addresses/subnets, got "${raw}"`);
  }
  return raw;
});

/** A host name or an IP address to bind, such as 127.0.0.1, 0.0.0.0, :: or app.internal. */
const bindHost = z
  .string()
  .refine((raw) => isIP(raw) !== 0 || /^[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})*$/.test(raw), {
    error: (iss) => `must be an address to listen on, such as 127.0.0.1, 0.0.0.0 or ::, ${got(iss, 100)}`,
  });

const REQUEST_LOGS = ['all', 'errors', 'off'] as const;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Every variable the app reads, keyed by its name (docs/configuration.md lists them, and a test keeps the two
 * in step). A field gives the variable's value or its default; defaults that depend on another variable are
 * left undefined here and worked out in {@link derive}. The order is the order errors are looked for in.
 */
const envSchema = z
  .object({
    PORT: portNumber(3000),
    HOST: bindHost.optional(),
    BASE_URL: origin.optional(),
    FB_APP_ID: numericId(() => "must be the numeric app id from the provider's app dashboard").optional(),
    FB_APP_SECRET: printableSecret.optional(),
    FB_API_VERSION: z
      .string()
      .regex(/^v\d+\.\d+$/, { error: (iss) => `must look like v23.0, ${got(iss)}` })
      .default(DEFAULT_API_VERSION),
    FB_SCOPES: checked(scopeList).optional(),
    FB_CONFIG_ID: numericId(
      (iss) => `must be the numeric configuration id from Facebook Login for Business, ${got(iss, 40)}`,
    ).optional(),
    FB_PKCE: onOff().optional(),
    FB_AUTH_URL: origin.default(DEFAULT_AUTH_URL),
    FB_PAGE_ID: numericId((iss) => `must be a numeric page id, ${got(iss)}`).optional(),
    SESSION_SECRET: keyList('each secret must be at least 32 characters').optional(),
    TOKEN_ENCRYPTION_KEY: keyList(
      'each key must be at least 32 characters (comma-separate old keys after the new one)',
    ).optional(),
    SESSION_STORE: store.default('memory'),
    PAGE_CACHE_STORE: store.optional(),
    FB_WEBHOOK_VERIFY_TOKEN: printableSecret.optional(),
    LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    LOG_REQUESTS: z
      .enum(REQUEST_LOGS, { error: (iss) => `must be one of ${REQUEST_LOGS.join(', ')}, ${got(iss, 20)}` })
      .default('all'),
    SHUTDOWN_DRAIN_SECONDS: anyWholeNumber(0, 300).optional(),
    FB_GRAPH_URL: origin.default(DEFAULT_GRAPH_URL),
    FB_IMAGE_ORIGINS: imageOrigins.optional(),
    FB_MEDIA_ORIGINS: imageOrigins.optional(),
    FB_JWKS_URL: httpUrl.optional(),
    REDIS_URL: redisUrl.default('redis://127.0.0.1:6379'),
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[\x21-\x7e]{1,100}$/, {
        error: 'must be 1 to 100 printable characters without spaces, such as "pagelight:"',
      })
      .default('pagelight:'),
    PROVIDER_PORT: portNumber(3001),
    EMULATOR_ACTIVITY: onOff(20).default(false),
    TRUST_PROXY: trustProxy.optional(),
    SESSION_IDLE_SECONDS: wholeNumber(1, 31 * 24 * 3600, 2 * 60 * 60),
    SESSION_MAX_SECONDS: wholeNumber(1, 365 * 24 * 3600, 7 * 24 * 3600),
    PROVIDER_TIMEOUT_MS: wholeNumber(1, 60000, 5000),
    POST_EXTRAS_DEADLINE_MS: wholeNumber(1, 60000, 2000),
    PAGE_CACHE_TTL: wholeNumber(0, 86400, 60),
    MAX_CONNECTIONS: wholeNumber(1, 1_000_000, 1000),
    ACCOUNTS_CACHE_TTL: wholeNumber(0, 3600, 30),
    SESSION_UPSTREAM_CONCURRENCY: wholeNumber(1, 64, 4),
    SESSION_RATE_LIMIT: wholeNumber(1, 100_000, 60),
    LOGIN_RATE_LIMIT: wholeNumber(0, 1_000_000, 30),
    LIVE_STREAMS_PER_SESSION: wholeNumber(1, 64, 4),
    LIVE_STREAMS_PER_PERSON: wholeNumber(1, 100_000, 8),
    LIVE_STREAMS_PER_ADDRESS: wholeNumber(1, 100_000, 32),
    LIVE_STREAMS_MAX: anyWholeNumber(1, 1_000_000).optional(),
    LIVE_HEARTBEAT_SECONDS: wholeNumber(1, 3600, 25),
    METRICS_PORT: anyPort().optional(),
    METRICS_HOST: z
      .string()
      .regex(/^[A-Za-z0-9.:-]{1,253}$/, {
        error: (iss) => `must be an address or host name such as 127.0.0.1, ${got(iss, 60)}`,
      })
      .default('127.0.0.1'),
    OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
    OPERATOR_NAME: oneLine.optional(),
    OPERATOR_CONTACT: oneLine.optional(),
    NODE_ENV: z.string().default('development'),
  })
  // The rules between variables, all here. They run once every variable is valid on its own.
  .superRefine((vars, ctx) => {
    const demo = vars.FB_APP_ID === undefined;
    if (!demo && vars.FB_APP_SECRET === undefined) {
      ctx.addIssue({ code: 'custom', path: ['FB_APP_SECRET'], message: 'is required when FB_APP_ID is set' });
    }
    if (!demo && vars.SESSION_SECRET === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message:
          'is required when FB_APP_ID is set (32+ random characters; comma-separate old secrets after the new one to rotate)',
      });
    }
    // Streams hold their connections for as long as a tab is open: half the connections always stay for the
    // pages and the probes, whatever a flood of streams does.
    if (vars.LIVE_STREAMS_MAX !== undefined && vars.LIVE_STREAMS_MAX > vars.MAX_CONNECTIONS / 2) {
      ctx.addIssue({
        code: 'custom',
        path: ['LIVE_STREAMS_MAX'],
        message: `must be at most half of MAX_CONNECTIONS (${Math.floor(vars.MAX_CONNECTIONS / 2)}), so pages and probes always have connections`,
      });
    }
    // The metrics say how the app runs, not for the public: never on its port (docs/operations.md#metrics).
    if (vars.METRICS_PORT !== undefined && vars.METRICS_PORT !== 0 && vars.METRICS_PORT === vars.PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: `must differ from PORT (${vars.PORT}): metrics are never served on the public port`,
      });
    }
    // The shared cache uses the session store's Redis client.
    if (vars.PAGE_CACHE_STORE === 'redis' && vars.SESSION_STORE !== 'redis') {
      ctx.addIssue({
        code: 'custom',
        path: ['PAGE_CACHE_STORE'],
        message: '"redis" needs SESSION_STORE=redis (it shares that Redis client)',
      });
    }
  });

type Vars = z.output<typeof envSchema>;

/** The names of every variable the app reads, in the schema's order. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** The configuration the app runs with, worked out from valid variables (docs/configuration.md). */
function derive(vars: Vars) {
  const demo = vars.FB_APP_ID === undefined;
  // The demo runs the OIDC flow (so it exercises PKCE and the id_token against the emulator), and its
  // provider delivers webhooks, so its pages may be subscribed; its seed has
  // a business portfolio, whose Pages the picker lists with business_management (docs/provider-interface.md#portfolio-pages);
  // it reads comments too (the opt-in pages_read_user_content), and answers and moderates them (pages_manage_engagement);
  // and its managers publish as the Page (pages_manage_posts, docs/architecture.md#publishing).
  const scopes =
    vars.FB_SCOPES ??
    (demo
      ? [
          OPENID_SCOPE,
          ...DEFAULT_SCOPES.split(' '),
          SUBSCRIBE_SCOPE,
          BUSINESS_SCOPE,
          INSIGHTS_SCOPE,
          COMMENTS_SCOPE,
          ENGAGEMENT_SCOPE,
          PUBLISH_SCOPE,
        ]
      : DEFAULT_SCOPES.split(' '));
  const sessionSecrets = vars.SESSION_SECRET ?? [randomBytes(32).toString('base64url')];
  const baseUrl = vars.BASE_URL ?? `http://localhost:${vars.PORT}`;
  return {
    port: vars.PORT,
    /**
     * The address to listen on; undefined is every interface. Demo mode binds loopback unless HOST says
     * otherwise: its app secret is published, so anyone who reached it could forge its provider's callbacks.
     */
    host: vars.HOST ?? (demo ? '127.0.0.1' : undefined),
    baseUrl,
    /** `$BASE_URL/auth/callback`, registered with the provider. */
    callbackUrl: `${baseUrl}/auth/callback`,
    /** Demo mode: no FB_APP_ID, the embedded emulator is started and wired in. */
    demo,
    appId: vars.FB_APP_ID ?? '',
    appSecret: vars.FB_APP_SECRET ?? '',
    apiVersion: vars.FB_API_VERSION,
    authUrl: vars.FB_AUTH_URL,
    graphUrl: vars.FB_GRAPH_URL,
    /** Origins whose images the pages show and the CSP's `img-src` lists; demo mode adds the emulator's. */
    imageOrigins: vars.FB_IMAGE_ORIGINS ?? DEFAULT_IMAGE_ORIGINS.split(' '),
    /** Origins whose videos the post page plays and the CSP's `media-src` lists; demo mode adds the emulator's. */
    mediaOrigins: vars.FB_MEDIA_ORIGINS ?? DEFAULT_MEDIA_ORIGINS.split(' '),
    scopes,
    /** Facebook Login for Business: the configuration the dialog logs in with (it holds the permissions). */
    configId: vars.FB_CONFIG_ID,
    pkce: vars.FB_PKCE ?? demo,
    /** `openid` is among the scopes: a nonce goes to the dialog and the exchange must return a verified id_token. */
    oidc: scopes.includes(OPENID_SCOPE),
    jwksUrl: vars.FB_JWKS_URL ?? `${vars.FB_AUTH_URL}${JWKS_PATH}`,
    /** The `iss` the provider's id_tokens must carry: the dialog's origin. */
    oidcIssuer: vars.FB_AUTH_URL,
    pageId: vars.FB_PAGE_ID,
    sessionSecrets,
    sessionSecretGenerated: vars.SESSION_SECRET === undefined,
    /** Keys that seal tokens in the session, newest first. */
    tokenKeys: vars.TOKEN_ENCRYPTION_KEY ?? sessionSecrets,
    sessionStore: vars.SESSION_STORE,
    pageCacheStore: vars.PAGE_CACHE_STORE ?? vars.SESSION_STORE,
    redisUrl: vars.REDIS_URL,
    /** Every Redis key starts with this; sessions under `<prefix>sess:` (docs/configuration.md#redis-keys). */
    redisKeyPrefix: vars.REDIS_KEY_PREFIX,
    providerPort: vars.PROVIDER_PORT,
    emulatorActivity: vars.EMULATOR_ACTIVITY,
    trustProxy: vars.TRUST_PROXY,
    /** BASE_URL is https: cookies are Secure (with a __Host- name), and HSTS and upgrade-insecure-requests are sent. */
    servedOverHttps: baseUrl.startsWith('https:'),
    sessionIdleSec: vars.SESSION_IDLE_SECONDS,
    sessionMaxSec: vars.SESSION_MAX_SECONDS,
    providerTimeoutMs: vars.PROVIDER_TIMEOUT_MS,
    // The post page's viewers, comments and replies: late, the page shows without them.
    postExtrasDeadlineMs: vars.POST_EXTRAS_DEADLINE_MS,
    pageCacheTtlSec: vars.PAGE_CACHE_TTL,
    maxConnections: vars.MAX_CONNECTIONS,
    accountsCacheTtlSec: vars.ACCOUNTS_CACHE_TTL,
    sessionUpstreamConcurrency: vars.SESSION_UPSTREAM_CONCURRENCY,
    sessionRateLimit: vars.SESSION_RATE_LIMIT,
    loginRateLimit: vars.LOGIN_RATE_LIMIT,
    /** Webhooks are off without one; in demo mode a random one, registered with the embedded emulator. */
    webhookVerifyToken: vars.FB_WEBHOOK_VERIFY_TOKEN ?? (demo ? randomBytes(24).toString('base64url') : undefined),
    liveStreamsPerSession: vars.LIVE_STREAMS_PER_SESSION,
    liveStreamsMax: vars.LIVE_STREAMS_MAX ?? Math.max(1, Math.floor(vars.MAX_CONNECTIONS / 2)),
    liveStreamsPerPerson: vars.LIVE_STREAMS_PER_PERSON,
    liveStreamsPerAddress: vars.LIVE_STREAMS_PER_ADDRESS,
    liveHeartbeatSec: vars.LIVE_HEARTBEAT_SECONDS,
    /** Who runs this instance and how to reach them, for the privacy page; undefined shows a placeholder. */
    /** Where /metrics is served, when METRICS_PORT is set (docs/operations.md#metrics). */
    metrics: vars.METRICS_PORT === undefined ? undefined : { port: vars.METRICS_PORT, host: vars.METRICS_HOST },
    /** OTLP/HTTP collector of traces; unset, no tracing code is loaded (docs/operations.md#traces). */
    otlpEndpoint: vars.OTEL_EXPORTER_OTLP_ENDPOINT,
    operatorName: vars.OPERATOR_NAME,
    operatorContact: vars.OPERATOR_CONTACT,
    logLevel: vars.LOG_LEVEL,
    /** Access lines: every request, only 4xx and 5xx, or none (docs/operations.md#access-logs). */
    logRequests: vars.LOG_REQUESTS,
    /**
     * Seconds between SIGTERM and closing the listener, while /readyz already answers 503 so balancers stop
     * sending: 5 in production against a real provider, 0 otherwise (docs/operations.md#probes-and-shutdown).
     */
    shutdownDrainSec: vars.SHUTDOWN_DRAIN_SECONDS ?? (vars.NODE_ENV === 'production' && !demo ? 5 : 0),
    nodeEnv: vars.NODE_ENV,
  };
}

/** The whole configuration, validated once at start (docs/configuration.md). */
export type Config = Readonly<ReturnType<typeof derive>>;

type Env = Readonly<Record<string, string | undefined>>;

/** Variables an earlier version read, and what they are called now: setting the old one is an error, not ignored. */
const RENAMED: Readonly<Record<string, string>> = {
  // It prefixed every key, not only the sessions'.
  REDIS_PREFIX: 'REDIS_KEY_PREFIX (sessions are kept under its value + "sess:", docs/configuration.md#redis-keys)',
};

/** A value that is empty or only spaces counts as unset. */
function read(env: Env, name: string): string | undefined {
  const trimmed = env[name]?.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * Reads and validates the environment. Throws {@link ConfigError} naming the
 * first bad variable; never returns a half-valid config. `now` (epoch ms) is
 * the day FB_API_VERSION is checked against its end (docs/provider-interface.md#version-ends).
 */
export function loadConfig(env: Env = process.env, now: number = Date.now()): Config {
  for (const [old, name] of Object.entries(RENAMED))
    if (read(env, old) !== undefined) throw new ConfigError(old, `was renamed ${name}; set that instead`);
  const result = envSchema.safeParse(Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, read(env, name)])));
  if (!result.success) {
    const [issue] = result.error.issues;
    throw new ConfigError(String(issue?.path[0] ?? 'environment'), issue?.message ?? 'is not valid');
  }
  const version = result.data.FB_API_VERSION;
  const newest = `set FB_API_VERSION=${NEWEST_KNOWN_VERSION}, the newest version Pagelight knows`;
  // Older than the table's first row: it ended before the oldest one did, whatever its own day was.
  if (olderThanKnown(version)) {
    throw new ConfigError(
      'FB_API_VERSION',
      `${version} is older than ${OLDEST_KNOWN_VERSION}, the oldest version Pagelight knows, which stopped being available on ${versionEnd(OLDEST_KNOWN_VERSION)?.day}; ${newest}`,
    );
  }
  const end = versionEnd(version);
  // The provider would answer at another version than the one the app was written for, without saying so first.
  if (end !== undefined && now >= end.at) {
    throw new ConfigError('FB_API_VERSION', `${version} stopped being available on ${end.day}; ${newest}`);
  }
  return Object.freeze(derive(result.data));
}

/** The start-up warning when FB_API_VERSION ends within VERSION_WARNING_DAYS of `now` (docs/operations.md#api-versions). */
export function versionWarning(config: Pick<Config, 'apiVersion'>, now: number): string | undefined {
  const left = daysLeft(config.apiVersion, now);
  if (left === undefined || left > VERSION_WARNING_DAYS) return undefined;
  return `FB_API_VERSION=${config.apiVersion} stops being available on ${versionEnd(config.apiVersion)?.day}, in ${left} days: move to ${NEWEST_KNOWN_VERSION} (docs/operations.md#api-versions)`;
}

/** The start-up warning when the privacy page would show placeholders outside demo mode. */
export function operatorWarning(config: Pick<Config, 'demo' | 'operatorName' | 'operatorContact'>): string | undefined {
  if (config.demo) return undefined;
  const missing = [
    ...(config.operatorName === undefined ? ['OPERATOR_NAME'] : []),
    ...(config.operatorContact === undefined ? ['OPERATOR_CONTACT'] : []),
  ];
  if (missing.length === 0) return undefined;
  return `${missing.join(' and ')} unset: the privacy page (/privacy) says they were not given; the provider's app review wants them filled in`;
}

/**
 * The start-up warning for an https BASE_URL the app cannot see as https:
 * express-session will not set a Secure cookie on a request it sees as http,
 * so logins would loop. Unset and an explicit `false` are the same case.
 */
export function proxyWarning(config: Pick<Config, 'servedOverHttps' | 'trustProxy'>): string | undefined {
  if (!config.servedOverHttps || (config.trustProxy !== undefined && config.trustProxy !== false)) return undefined;
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
    /** Where this provider serves its images and videos: added to FB_IMAGE_ORIGINS and FB_MEDIA_ORIGINS. */
    imageOrigin?: string;
  },
): Config {
  const { imageOrigin, ...urls } = provider;
  const imageOrigins =
    imageOrigin === undefined || config.imageOrigins.includes(imageOrigin)
      ? config.imageOrigins
      : [...config.imageOrigins, imageOrigin];
  const mediaOrigins =
    imageOrigin === undefined || config.mediaOrigins.includes(imageOrigin)
      ? config.mediaOrigins
      : [...config.mediaOrigins, imageOrigin];
  return Object.freeze({
    ...config,
    oidcIssuer: provider.authUrl,
    jwksUrl: `${provider.authUrl}${JWKS_PATH}`,
    ...urls,
    imageOrigins,
    mediaOrigins,
  });
}
