/** A stand-in for the app's webhook endpoint: a real HTTP server on port 0 that records what it gets and answers as scripted. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { EmulatorOptions } from '../src';
import { CLIENT, makeEmulator, PAGES, USERS } from './helpers';

export interface Received {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  /** The raw body, byte for byte. */
  raw: Buffer;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** How to answer the next requests; the default echoes `hub.challenge` on GET and answers 200 on POST. */
  answer: (req: Received) => { status: number; body?: string } | 'hang';
  close(): Promise<void>;
}

export async function startReceiver(verifyToken = 'verify-me'): Promise<Receiver> {
  const received: Received[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    answer: (req) => {
      if (req.method === 'GET') {
        const ok =
          req.url.searchParams.get('hub.mode') === 'subscribe' &&
          req.url.searchParams.get('hub.verify_token') === verifyToken;
        return ok ? { status: 200, body: req.url.searchParams.get('hub.challenge') ?? '' } : { status: 403 };
      }
      return { status: 200 };
    },
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = {
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://receiver.test'),
        headers: req.headers,
        raw: Buffer.concat(chunks),
      };
      received.push(got);
      const answer = receiver.answer(got);
      if (answer === 'hang') return;
      res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/facebook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}

/** A fresh receiver for each test of the enclosing `describe`, closed after it; read `.current` inside a test. */
export function receiverPerTest(): { readonly current: Receiver } {
  let receiver: Receiver | undefined;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => receiver?.close());
  return {
    get current(): Receiver {
      if (!receiver) throw new Error('receiverPerTest: read inside a test');
      return receiver;
    },
  };
}

interface FeedPayload {
  entry: { changes: { value: Record<string, unknown> }[] }[];
}

/**
 * An emulator whose app's webhook is `receiver`, subscribed to the bakery's feed with Ada's Page token:
 * `write` sends a form as that token (expecting 200), `feedValues` reads the change values delivered so far.
 */
export async function subscribedToFeed(
  receiver: Receiver,
  webhooks: EmulatorOptions['webhooks'] = { retryDelaysMs: [] },
) {
  const emulator = makeEmulator({
    clients: [{ ...CLIENT, webhookUrl: receiver.url, webhookVerifyToken: 'verify-me' }],
    webhooks,
  });
  const token = emulator.controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
  await request(emulator.app)
    .post(`/${PAGES.bakery}/subscribed_apps`)
    .query({ access_token: token, subscribed_fields: 'feed' })
    .expect(200);
  const write = (method: 'post' | 'delete', path: string, form: Record<string, string> = {}) =>
    request(emulator.app)
      [method](`/${path}`)
      .type('form')
      .send({ access_token: token, ...form })
      .expect(200);
  const feedValues = () =>
    receiver.received
      .filter((r) => r.method === 'POST')
      .flatMap((r) => (JSON.parse(r.raw.toString('utf8')) as FeedPayload).entry.flatMap((x) => x.changes))
      .map((c) => c.value);
  return { emulator, write, feedValues };
}
