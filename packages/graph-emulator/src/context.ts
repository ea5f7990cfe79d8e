/**
 * Everything one emulator instance holds: options, data, issued credentials
 * and test-control state. Built once per `createEmulator`; nothing is global,
 * so several emulators can run side by side in one test process.
 */
import { Faults } from './faults';
import { RequestLog } from './log';
import { DEFAULT_SEED } from './seed';
import { CodeStore } from './store/codes';
import { DataStore } from './store/data';
import { DialogStore } from './store/dialogs';
import { TokenStore } from './store/tokens';
import { UsageMeter } from './graph/usage';
import type { EmulatorClient, EmulatorOptions } from './types';
import { Activity } from './activity';
import { DEFAULT_RETRY_DELAYS_MS, Webhooks } from './webhooks/webhooks';

export interface Context {
  clients: ReadonlyMap<string, EmulatorClient>;
  codeTtlMs: number;
  userTokenTtlSec: number;
  longLivedTtlSec: number;
  initialLatencyMs: number;
  /** Origin of the emulator's own links; `startEmulator` sets it once the port is known. */
  publicUrl: string;
  /** The port it listens on, once known: the controls accept only a loopback Host with this port. */
  port: number | undefined;
  now: () => number;
  data: DataStore;
  tokens: TokenStore;
  codes: CodeStore;
  dialogs: DialogStore;
  faults: Faults;
  usage: UsageMeter;
  log: RequestLog;
  webhooks: Webhooks;
  activity: Activity;
}

export function createContext(opts: EmulatorOptions): Context {
  const now = opts.now ?? Date.now;
  const codeTtlMs = positive('codeTtlMs', opts.codeTtlMs ?? 10 * 60_000);
  const initialLatencyMs = nonNegative('latencyMs', opts.latencyMs ?? 0);
  const faults = new Faults();
  faults.latencyMs = initialLatencyMs;
  const clients = clientMap(opts.clients);
  const data = new DataStore(opts.seed ?? DEFAULT_SEED);
  const webhooks = webhooksFor(opts, clients, now);
  return {
    clients,
    codeTtlMs,
    userTokenTtlSec: positive('userTokenTtlSec', opts.userTokenTtlSec ?? 7200),
    longLivedTtlSec: positive('longLivedTtlSec', opts.longLivedTtlSec ?? 60 * 24 * 3600),
    initialLatencyMs,
    publicUrl: publicOrigin(opts.publicUrl ?? 'http://localhost'),
    port: undefined,
    now,
    data,
    tokens: new TokenStore(now),
    codes: new CodeStore(codeTtlMs, now),
    dialogs: new DialogStore(now),
    faults,
    usage: new UsageMeter(now),
    log: new RequestLog(),
    webhooks,
    activity: new Activity(data, webhooks, now),
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
    if (client.webhookUrl !== undefined)
      checkWebhookUrl(client.webhookUrl, `createEmulator: webhookUrl of client ${clientId}`);
    map.set(clientId, { ...client });
  }
  return map;
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
