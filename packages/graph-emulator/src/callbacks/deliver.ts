/**
 * Sends one signed callback to an app and records how it answered. The URL
 * comes from the client's registration, never from a request. Whatever the
 * app does (refuses the connection, hangs, answers 500 or HTML), the outcome
 * is a record, never a thrown error: the emulator must keep serving.
 */
import { performance } from 'node:perf_hooks';
import type { CallbackDelivery } from '../types';

/** An app's answer is read up to this size; a longer one is cut (and will not parse). */
const MAX_ANSWER_BYTES = 16 * 1024;
/** Recorded deliveries kept; older ones are dropped. */
const MAX_DELIVERIES = 1000;

export interface Send {
  kind: CallbackDelivery['kind'];
  clientId: string;
  userId: string;
  url: string;
  signedRequest: string;
  at: number;
  timeoutMs: number;
}

export class CallbackLog {
  private readonly entries: CallbackDelivery[] = [];

  add(delivery: CallbackDelivery): void {
    this.entries.push(delivery);
    if (this.entries.length > MAX_DELIVERIES) this.entries.splice(0, this.entries.length - MAX_DELIVERIES);
  }

  all(): CallbackDelivery[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries.length = 0;
  }
}

export async function deliver(send: Send): Promise<CallbackDelivery> {
  const started = performance.now();
  const base = { at: send.at, kind: send.kind, clientId: send.clientId, userId: send.userId, url: send.url };
  const took = (): number => Math.round(performance.now() - started);
  let res: Response;
  let text: string;
  try {
    res = await fetch(send.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ signed_request: send.signedRequest }).toString(),
      // A redirect is an answer, not an instruction to post the signed request elsewhere.
      redirect: 'manual',
      signal: AbortSignal.timeout(send.timeoutMs),
    });
    text = await readCapped(res);
  } catch (err) {
    return { ...base, status: null, ok: false, error: failureText(err, send.timeoutMs), durationMs: took() };
  }
  const body = parseJson(res.headers.get('content-type'), text);
  const answered = { ...base, status: res.status, ...(body !== undefined ? { body } : {}), durationMs: took() };
  if (res.status < 200 || res.status > 299) return { ...answered, ok: false, error: `the app answered ${res.status}` };
  if (send.kind === 'deauthorize') return { ...answered, ok: true };
  const { url, confirmation_code: code } = (body ?? {}) as { url?: unknown; confirmation_code?: unknown };
  if (typeof code !== 'string' || code === '' || typeof url !== 'string' || url === '') {
    return { ...answered, ok: false, error: 'the answer has no JSON url and confirmation_code' };
  }
  return { ...answered, ok: true, confirmationCode: code, statusUrl: url };
}

async function readCapped(res: Response): Promise<string> {
  if (res.body === null) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= MAX_ANSWER_BYTES) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
}

function parseJson(contentType: string | null, text: string): unknown {
  if (contentType === null || !/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function failureText(err: unknown, timeoutMs: number): string {
  // Read by shape: the timeout is a DOMException, not always an `Error` of this realm.
  const { name, message, cause } = (err ?? {}) as { name?: unknown; message?: unknown; cause?: { code?: unknown } };
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  if (typeof cause?.code === 'string') return `could not connect (${cause.code})`;
  return typeof message === 'string' && message !== '' ? message : 'the request failed';
}
