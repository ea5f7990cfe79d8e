import { createHmac } from 'node:crypto';
import request from 'supertest';
import { startEmulator, type EmulatorOptions } from '../src';
import { CLIENT, makeEmulator, PAGES, USERS } from './helpers';
import { receiverPerTest, subscribedToFeed } from './webhook-receiver';

interface Payload {
  object: string;
  entry: { id: string; time: number; changes: { field: string; value: Record<string, unknown> }[] }[];
}

/** Computed here, independently of the emulator: hex HMAC-SHA256 of the raw bytes keyed by the app secret. */
const expectedSignature = (raw: Buffer): string =>
  `sha256=${createHmac('sha256', CLIENT.clientSecret).update(raw).digest('hex')}`;

describe('webhook deliveries', () => {
  const receiver = receiverPerTest();

  const subscribed = async (webhooks: EmulatorOptions['webhooks'] = { retryDelaysMs: [10, 20] }) =>
    (await subscribedToFeed(receiver.current, webhooks)).emulator;
  const posts = () => receiver.current.received.filter((r) => r.method === 'POST');
  const payloadOf = (i = 0): Payload => JSON.parse(posts()[i]!.raw.toString('utf8')) as Payload;

  it('when a notification is sent, then it also carries X-Hub-Signature: sha1= HMAC of the raw body with the app secret, beside the SHA-256 one', async () => {
    // docs/reference.md#webhooks: receivers written for the older header check only this one.
    const { controls } = await subscribed();
    controls.addPost({ pageId: PAGES.bakery, message: 'Crème brûlée / today' });
    await controls.webhooksIdle();
    const sent = posts()[0]!;
    expect(sent.headers['x-hub-signature']).toBe(
      `sha1=${createHmac('sha1', CLIENT.clientSecret).update(sent.raw).digest('hex')}`,
    );
    expect(sent.headers['x-hub-signature-256']).toBe(expectedSignature(sent.raw));
  });

  it('when a post is added on a subscribed page, then one signed POST with the page payload shape', async () => {
    const { controls, clock } = await subscribed();
    const { id } = controls.addPost({ pageId: PAGES.bakery, message: 'New bread' });
    await controls.webhooksIdle();
    expect(posts()).toHaveLength(1);
    const sent = posts()[0]!;
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['x-hub-signature-256']).toBe(expectedSignature(sent.raw));
    expect(payloadOf()).toEqual({
      object: 'page',
      entry: [
        {
          id: PAGES.bakery,
          time: Math.floor(clock.t / 1000),
          changes: [
            {
              field: 'feed',
              value: {
                from: { id: PAGES.bakery, name: expect.any(String) },
                item: 'status',
                verb: 'add',
                post_id: id,
                created_time: Math.floor(clock.t / 1000),
                published: 1,
                message: 'New bread',
              },
            },
          ],
        },
      ],
    });
    expect(controls.webhookDeliveries().filter((d) => d.kind === 'event')).toMatchObject([
      { state: 'delivered', attempts: [{ status: 200 }] },
    ]);
  });

  it('when the content has non-ASCII characters and slashes, then the body escapes them as the provider does and the signature covers those bytes', async () => {
    const { controls } = await subscribed();
    controls.addPost({ pageId: PAGES.bakery, message: 'äöå ☕ https://x.test/a 🍞' });
    await controls.webhooksIdle();
    const raw = posts()[0]!.raw.toString('utf8');
    expect(raw).toContain('\\u00e4\\u00f6\\u00e5 \\u2615 https:\\/\\/x.test\\/a \\ud83c\\udf5e');
    expect([...raw].every((ch) => ch.charCodeAt(0) < 0x80)).toBe(true);
    expect(payloadOf().entry[0]!.changes[0]!.value.message).toBe('äöå ☕ https://x.test/a 🍞');
    expect(posts()[0]!.headers['x-hub-signature-256']).toBe(expectedSignature(posts()[0]!.raw));
  });

  it('when several changes happen at once, then they are batched into one delivery', async () => {
    const { controls } = await subscribed();
    const { id } = controls.addPost({ pageId: PAGES.bakery, message: 'one' });
    controls.editPost(id, 'one, edited');
    controls.setReactions(id, { like: 2 });
    controls.removePost(id);
    await controls.webhooksIdle();
    expect(posts()).toHaveLength(1);
    const changes = payloadOf().entry[0]!.changes.map((c) => [c.value.item, c.value.verb]);
    expect(changes).toEqual([
      ['status', 'add'],
      ['status', 'edited'],
      ['reaction', 'add'],
      ['reaction', 'add'],
      ['status', 'remove'],
    ]);
    expect(payloadOf().entry[0]!.changes[2]!.value).toMatchObject({
      reaction_type: 'like',
      parent_id: id,
      post_id: id,
    });
  });

  it('when the callback fails, then it is retried with the configured backoff and the same body and signature', async () => {
    const { controls } = await subscribed({ retryDelaysMs: [10, 40] });
    let calls = 0;
    receiver.current.answer = (req) => (req.method === 'POST' && ++calls < 3 ? { status: 503 } : { status: 200 });
    const started = Date.now();
    controls.addPost({ pageId: PAGES.bakery, message: 'retry me' });
    await controls.webhooksIdle();
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(posts()).toHaveLength(3);
    expect(new Set(posts().map((p) => p.raw.toString()))).toHaveProperty('size', 1);
    expect(new Set(posts().map((p) => p.headers['x-hub-signature-256']))).toHaveProperty('size', 1);
    const [event] = controls.webhookDeliveries().filter((d) => d.kind === 'event');
    expect(event).toMatchObject({ state: 'delivered', attempts: [{ status: 503 }, { status: 503 }, { status: 200 }] });
  });

  it('when the callback never succeeds, then delivery gives up after the last retry', async () => {
    const { controls } = await subscribed({ retryDelaysMs: [5, 5] });
    receiver.current.answer = (req) =>
      req.method === 'POST' ? { status: 500 } : { status: 200, body: req.url.searchParams.get('hub.challenge') ?? '' };
    controls.addPost({ pageId: PAGES.bakery, message: 'lost' });
    await controls.webhooksIdle();
    expect(posts()).toHaveLength(3);
    const [event] = controls.webhookDeliveries().filter((d) => d.kind === 'event');
    expect(event?.state).toBe('failed');
  });

  it('when the callback does not answer in time, then that attempt counts as failed and is retried', async () => {
    const { controls } = await subscribed({ retryDelaysMs: [5], timeoutMs: 100 });
    let calls = 0;
    receiver.current.answer = (req) => (req.method === 'POST' && ++calls === 1 ? 'hang' : { status: 200 });
    controls.addPost({ pageId: PAGES.bakery, message: 'slow' });
    await controls.webhooksIdle();
    const [event] = controls.webhookDeliveries().filter((d) => d.kind === 'event');
    expect(event?.attempts[0]).toMatchObject({ status: null, error: expect.stringContaining('100 ms') });
    expect(event?.state).toBe('delivered');
  });

  it('when a delivery is redelivered, then the app gets the identical body and signature again', async () => {
    const { controls } = await subscribed();
    controls.addPost({ pageId: PAGES.bakery, message: 'twice' });
    await controls.webhooksIdle();
    const [event] = controls.webhookDeliveries().filter((d) => d.kind === 'event');
    controls.redeliverWebhook(event!.id);
    await controls.webhooksIdle();
    expect(posts()).toHaveLength(2);
    expect(posts()[1]!.raw.equals(posts()[0]!.raw)).toBe(true);
    expect(posts()[1]!.headers['x-hub-signature-256']).toBe(posts()[0]!.headers['x-hub-signature-256']);
  });

  it('when a page has no subscription, or the app unsubscribed, then its changes are not delivered', async () => {
    const { controls, app } = await subscribed();
    controls.addPost({ pageId: PAGES.sparse, message: 'nobody listens' });
    const token = controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    await request(app).delete(`/${PAGES.bakery}/subscribed_apps`).query({ access_token: token }).expect(200);
    controls.addPost({ pageId: PAGES.bakery, message: 'unsubscribed' });
    await controls.webhooksIdle();
    expect(posts()).toHaveLength(0);
  });

  it('when the webhook is registered through the controls, then the handshake decides whether it is kept', async () => {
    const { controls } = makeEmulator();
    await expect(
      controls.setWebhook(CLIENT.clientId, { url: receiver.current.url, verifyToken: 'wrong' }),
    ).resolves.toBe(false);
    await expect(
      controls.setWebhook(CLIENT.clientId, { url: receiver.current.url, verifyToken: 'verify-me' }),
    ).resolves.toBe(true);
    expect(controls.webhookDeliveries().map((d) => [d.kind, d.state])).toEqual([
      ['verification', 'failed'],
      ['verification', 'delivered'],
    ]);
    await expect(controls.setWebhook(CLIENT.clientId, { url: 'ftp://x.test/', verifyToken: 'v' })).rejects.toThrow(
      /http/,
    );
  });

  it('when the emulator closes, then no retry is left running', async () => {
    const running = await startEmulator({
      clients: [{ ...CLIENT, webhookUrl: receiver.current.url, webhookVerifyToken: 'verify-me' }],
      webhooks: { retryDelaysMs: [60_000] },
    });
    const token = running.controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    await request(running.url)
      .post(`/${PAGES.bakery}/subscribed_apps`)
      .query({ access_token: token, subscribed_fields: 'feed' })
      .expect(200);
    receiver.current.answer = (req) => (req.method === 'POST' ? { status: 500 } : { status: 200 });
    running.controls.addPost({ pageId: PAGES.bakery, message: 'x' });
    await new Promise((r) => setTimeout(r, 100));
    await running.close();
    await running.controls.webhooksIdle();
    expect(posts()).toHaveLength(1);
  });
});
