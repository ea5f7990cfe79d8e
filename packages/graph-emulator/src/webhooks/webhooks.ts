/**
 * The provider's webhook machinery for one emulator: each client's callback
 * settings (the app dashboard's "Callback URL" and "Verify token"), the
 * pages' `subscribed_apps`, and deliveries ("Webhooks — Get Started"):
 *
 * - a verification request (`GET <url>?hub.mode=subscribe&hub.challenge=<int>&hub.verify_token=…`)
 *   that must be answered 200 with the challenge echoed, before a callback is used;
 * - event notifications batched per app (at most 1000 changes in one POST),
 *   signed with the app secret, retried after a failure (non-2xx, no answer,
 *   timeout) "immediately, then a few more times with decreasing frequency
 *   over the next 36 hours" — the schedule is an option so tests run fast.
 */
import { randomInt } from 'node:crypto';
import { randomAlnum } from '../random';
import { Timers } from '../timers';
import type { WebhookDelivery, WebhookSettings } from '../types';
import { providerJson, signatureOf, type WebhookChange, type WebhookPayload } from './payload';
import { Sender } from './send';

export interface WebhookTiming {
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  batchMs: number;
}

/** Immediately, then with decreasing frequency: ~35 hours in all. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  0,
  60_000,
  600_000,
  3_600_000,
  4 * 3_600_000,
  12 * 3_600_000,
  18 * 3_600_000,
]);
const MAX_CHANGES_PER_DELIVERY = 1000;
const MAX_RECORDS = 1000;

interface Registered extends WebhookSettings {
  verified: boolean;
}

interface Client {
  clientId: string;
  clientSecret: string;
}

export class Webhooks {
  private readonly settings = new Map<string, Registered>();
  /** page id → client id → subscribed fields. */
  private readonly subscriptions = new Map<string, Map<string, string[]>>();
  /** client id → page id → changes waiting for the batch to go out. */
  private readonly batches = new Map<string, Map<string, WebhookChange[]>>();
  private batchTimer: NodeJS.Timeout | undefined;
  private readonly records: WebhookDelivery[] = [];
  private readonly timers = new Timers();
  private busy = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly sender: Sender;
  private disposed = false;

  constructor(
    private readonly clients: ReadonlyMap<string, Client>,
    private readonly timing: WebhookTiming,
    private readonly now: () => number,
  ) {
    this.sender = new Sender(timing.timeoutMs);
  }

  /** Settings from the options: used once verified (on the first subscription). */
  preset(clientId: string, settings: WebhookSettings): void {
    this.settings.set(clientId, { ...settings, verified: false });
  }

  settingsOf(clientId: string): WebhookSettings | undefined {
    const found = this.settings.get(clientId);
    if (found === undefined) return undefined;
    const { url, verifyToken, fields } = found;
    return { url, verifyToken, ...(fields !== undefined ? { fields: [...fields] } : {}) };
  }

  /**
   * Like saving the dashboard's webhook settings: the new callback is verified
   * first and kept only when it echoes the challenge. `null` removes it.
   */
  async register(clientId: string, settings: WebhookSettings | null): Promise<boolean> {
    if (settings === null) {
      this.settings.delete(clientId);
      return true;
    }
    const ok = (await this.verify(clientId, settings)) === undefined;
    if (ok) this.settings.set(clientId, { ...settings, verified: true });
    return ok;
  }

  /** Verifies the client's callback if that has not been done; the failure, described, or undefined. */
  async ensureVerified(clientId: string): Promise<string | undefined> {
    const current = this.settings.get(clientId);
    if (current === undefined || current.verified) return undefined;
    const problem = await this.verify(clientId, current);
    if (problem === undefined) current.verified = true;
    return problem;
  }

  private async verify(clientId: string, settings: WebhookSettings): Promise<string | undefined> {
    const challenge = String(randomInt(1_000_000_000, 2_000_000_000));
    const url = new URL(settings.url);
    url.searchParams.set('hub.mode', 'subscribe');
    url.searchParams.set('hub.challenge', challenge);
    url.searchParams.set('hub.verify_token', settings.verifyToken);
    const record = this.record({ kind: 'verification', clientId, url: settings.url, body: '' });
    const result = await this.tracked(() => this.sender.send(url, 'GET', {}));
    record.attempts.push({ at: this.now(), status: result.status, ...(result.error ? { error: result.error } : {}) });
    const ok = result.status === 200 && result.body === challenge;
    record.state = ok ? 'delivered' : 'failed';
    if (ok) return undefined;
    if (result.status === null) return `Connection error: ${result.error ?? 'no answer'}`;
    if (result.status !== 200) return `HTTP Status Code = ${result.status}`;
    return "The URL couldn't be validated. Response does not match challenge";
  }

  subscribe(pageId: string, clientId: string, fields: string[]): void {
    let apps = this.subscriptions.get(pageId);
    if (apps === undefined) this.subscriptions.set(pageId, (apps = new Map<string, string[]>()));
    apps.set(clientId, [...new Set(fields)]);
  }

  unsubscribe(pageId: string, clientId: string): void {
    this.subscriptions.get(pageId)?.delete(clientId);
  }

  /** Apps subscribed to the page, in subscription order. */
  subscribers(pageId: string): { clientId: string; fields: string[] }[] {
    return [...(this.subscriptions.get(pageId) ?? new Map<string, string[]>())].map(([clientId, fields]) => ({
      clientId,
      fields: [...fields],
    }));
  }

  /** A change on a page: queued for every app subscribed to `field` with a verified callback. */
  notify(pageId: string, field: string, value: unknown): void {
    if (this.disposed) return;
    for (const { clientId, fields } of this.subscribers(pageId)) {
      if (!fields.includes(field) || this.settings.get(clientId)?.verified !== true) continue;
      let pages = this.batches.get(clientId);
      if (pages === undefined) this.batches.set(clientId, (pages = new Map<string, WebhookChange[]>()));
      const changes = pages.get(pageId) ?? [];
      changes.push({ field, value: structuredClone(value) });
      pages.set(pageId, changes);
    }
    if (this.batches.size > 0 && this.batchTimer === undefined) {
      this.busy += 1;
      this.batchTimer = this.timers.after(this.timing.batchMs, () => {
        this.batchTimer = undefined;
        this.flushBatches();
        this.release();
      });
    }
  }

  private flushBatches(): void {
    const batches = [...this.batches];
    this.batches.clear();
    for (const [clientId, pages] of batches) {
      let entries: WebhookPayload['entry'] = [];
      let count = 0;
      const time = Math.floor(this.now() / 1000);
      for (const [pageId, changes] of pages) {
        for (let i = 0; i < changes.length; i += MAX_CHANGES_PER_DELIVERY - count) {
          const part = changes.slice(i, i + MAX_CHANGES_PER_DELIVERY - count);
          entries.push({ id: pageId, time, changes: part });
          count += part.length;
          if (count >= MAX_CHANGES_PER_DELIVERY) {
            this.deliver(clientId, { object: 'page', entry: entries });
            entries = [];
            count = 0;
          }
        }
      }
      if (entries.length > 0) this.deliver(clientId, { object: 'page', entry: entries });
    }
  }

  private deliver(clientId: string, payload: WebhookPayload): void {
    const settings = this.settings.get(clientId);
    const client = this.clients.get(clientId);
    if (settings === undefined || client === undefined) return;
    const body = providerJson(payload);
    const record = this.record({
      kind: 'event',
      clientId,
      url: settings.url,
      body,
      signature: signatureOf(body, client.clientSecret),
      signatureSha1: signatureOf(body, client.clientSecret, 'sha1'),
    });
    this.attempt(record);
  }

  /** Sends a recorded event notification again, as-is (a duplicate, like a retry after a lost answer). */
  redeliver(id: string): boolean {
    const original = this.records.find((r) => r.id === id && r.kind === 'event');
    if (original === undefined) return false;
    const { kind, clientId, url, body, signature, signatureSha1 } = original;
    this.attempt(
      this.record({
        kind,
        clientId,
        url,
        body,
        ...(signature !== undefined ? { signature } : {}),
        ...(signatureSha1 !== undefined ? { signatureSha1 } : {}),
      }),
    );
    return true;
  }

  private attempt(record: WebhookDelivery): void {
    if (this.disposed) return;
    this.busy += 1;
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'facebookexternalua',
      'X-Hub-Signature-256': record.signature ?? '',
      'X-Hub-Signature': record.signatureSha1 ?? '',
    };
    void this.sender.send(new URL(record.url), 'POST', headers, record.body).then((result) => {
      record.attempts.push({ at: this.now(), status: result.status, ...(result.error ? { error: result.error } : {}) });
      const ok = result.status !== null && result.status >= 200 && result.status < 300;
      const retry = record.attempts.length - 1;
      const delay = this.timing.retryDelaysMs[retry];
      if (ok) record.state = 'delivered';
      else if (delay === undefined || this.disposed) record.state = 'failed';
      else {
        this.busy += 1;
        this.timers.after(delay, () => {
          this.attempt(record);
          this.release();
        });
      }
      this.release();
    });
  }

  /** Recorded handshakes and deliveries, oldest first (copies; bounded). */
  deliveries(): WebhookDelivery[] {
    return this.records.map((r) => ({ ...r, attempts: r.attempts.map((a) => ({ ...a })) }));
  }

  /** Resolves once no batch is waiting, no request is in flight and no retry is scheduled. */
  idle(): Promise<void> {
    if (this.busy === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Back to no subscriptions and no deliveries; callback settings stay, like the clients. */
  reset(): void {
    this.timers.clear();
    this.batchTimer = undefined;
    this.batches.clear();
    this.subscriptions.clear();
    this.records.length = 0;
    this.busy = 0;
    this.wakeIdle();
  }

  dispose(): void {
    this.disposed = true;
    this.reset();
    this.sender.dispose();
  }

  private record(init: Omit<WebhookDelivery, 'id' | 'attempts' | 'state'>): WebhookDelivery {
    const record: WebhookDelivery = { ...init, id: randomAlnum(12), attempts: [], state: 'pending' };
    this.records.push(record);
    if (this.records.length > MAX_RECORDS) this.records.splice(0, this.records.length - MAX_RECORDS);
    return record;
  }

  private async tracked<T>(run: () => Promise<T>): Promise<T> {
    this.busy += 1;
    try {
      return await run();
    } finally {
      this.release();
    }
  }

  private release(): void {
    this.busy = Math.max(0, this.busy - 1);
    if (this.busy === 0) this.wakeIdle();
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
