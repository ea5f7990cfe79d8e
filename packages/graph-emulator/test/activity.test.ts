import request from 'supertest';
import { startEmulator, type RunningEmulator } from '../src';
import { CLIENT, makeEmulator, PAGES, USERS } from './helpers';
import { startReceiver, type Receiver } from './webhook-receiver';

interface FeedBody {
  data: { id: string; message?: string; story?: string }[];
}

describe('activity controls', () => {
  const setup = () => {
    const emulator = makeEmulator();
    const token = emulator.controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    const feed = async (): Promise<FeedBody> =>
      (
        await request(emulator.app)
          .get(`/${PAGES.bakery}/feed`)
          .query({ access_token: token, limit: '100' })
          .expect(200)
      ).body as FeedBody;
    return { ...emulator, feed };
  };

  it('when a post is added, then the feed serves it first; edited, its new text; removed, no more', async () => {
    const { controls, feed } = setup();
    const before = (await feed()).data.length;
    const { id } = controls.addPost({ pageId: PAGES.bakery, message: 'Just baked' });
    expect(id).toMatch(new RegExp(`^${PAGES.bakery}_\\d+$`));
    expect((await feed()).data[0]).toEqual({ id, created_time: '2026-10-01T12:00:00+0000', message: 'Just baked' });
    controls.editPost(id, 'Just baked, and still warm');
    expect((await feed()).data[0]?.message).toBe('Just baked, and still warm');
    controls.removePost(id);
    const after = await feed();
    expect(after.data.map((p) => p.id)).not.toContain(id);
    expect(after.data).toHaveLength(before);
  });

  it('when reaction counts are set, then they are kept per post and zero removes a type', () => {
    const { controls } = setup();
    const { id } = controls.addPost({ pageId: PAGES.bakery, message: 'React to me' });
    controls.setReactions(id, { like: 3, love: 1 });
    controls.setReactions(id, { love: 0 });
    expect(controls.reactions(id)).toEqual({ like: 3 });
  });

  it('when the input is wrong, then the control throws naming the problem and nothing changes', async () => {
    const { controls, feed } = setup();
    const before = await feed();
    expect(() => controls.addPost({ pageId: PAGES.bakery })).toThrow(/message or a story/);
    expect(() => controls.addPost({ pageId: '999', message: 'x' })).toThrow(/Unknown page 999/);
    expect(() => controls.editPost(`${PAGES.bakery}_1`, 'x')).toThrow(/Unknown post/);
    expect(() => controls.removePost('nope')).toThrow(/postId/);
    expect(await feed()).toEqual(before);
  });

  it('when the emulator is reset, then added posts are gone', async () => {
    const { controls, feed } = setup();
    const { id } = controls.addPost({ pageId: PAGES.bakery, message: 'temporary' });
    controls.reset();
    expect((await feed()).data.map((p) => p.id)).not.toContain(id);
  });
});

describe('activity and webhook controls over HTTP', () => {
  let emulator: RunningEmulator;
  let receiver: Receiver;
  beforeAll(async () => {
    emulator = await startEmulator({ clients: [CLIENT], httpControls: true });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await emulator.close();
    await receiver.close();
  });
  const post = (path: string, body: unknown) =>
    fetch(`${emulator.url}/__emulator${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('when a webhook is registered, a page subscribed and a post added over HTTP, then the delivery is listed', async () => {
    expect(await (await post('/webhooks', { url: receiver.url, verifyToken: 'verify-me' })).json()).toEqual({
      verified: true,
    });
    const token = emulator.controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    await request(emulator.url)
      .post(`/${PAGES.bakery}/subscribed_apps`)
      .query({ access_token: token, subscribed_fields: 'feed' })
      .expect(200);
    const added = await post('/activity/posts', { pageId: PAGES.bakery, message: 'over HTTP' });
    expect(added.status).toBe(201);
    const { id } = (await added.json()) as { id: string };
    expect((await post('/activity/edit', { postId: id, message: 'edited over HTTP' })).status).toBe(204);
    expect(await (await post('/activity/reactions', { postId: id, counts: { like: 1 } })).json()).toEqual({
      counts: { like: 1 },
    });
    expect((await post('/activity/remove', { postId: id })).status).toBe(204);
    await emulator.controls.webhooksIdle();
    const listed = (await (await fetch(`${emulator.url}/__emulator/webhooks/deliveries`)).json()) as {
      data: { kind: string; state: string }[];
    };
    expect(listed.data.map((d) => [d.kind, d.state])).toContainEqual(['event', 'delivered']);
    const subs = await (await fetch(`${emulator.url}/__emulator/webhooks/subscriptions/${PAGES.bakery}`)).json();
    expect(subs).toEqual({ data: [{ clientId: CLIENT.clientId, fields: ['feed'] }] });
  });

  it('when a body is wrong, then 400 naming the field; a text/plain POST is refused with 415', async () => {
    const bad = await post('/activity/posts', { pageId: 'abc', message: 'x' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^pageId: /);
    const plain = await fetch(`${emulator.url}/__emulator/activity/posts`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ pageId: PAGES.bakery, message: 'x' }),
    });
    expect(plain.status).toBe(415);
  });
});

describe('activity generator', () => {
  it('when not asked for, then it is off', async () => {
    const running = await startEmulator({ clients: [CLIENT] });
    const before = running.controls.webhookDeliveries().length;
    await new Promise((r) => setTimeout(r, 50));
    expect(running.controls.webhookDeliveries().length).toBe(before);
    await running.close();
  });

  it('when on, then it posts on a subscribed page every interval, and nothing more once the emulator closes', async () => {
    const receiver = await startReceiver();
    const running = await startEmulator({
      clients: [{ ...CLIENT, webhookUrl: receiver.url, webhookVerifyToken: 'verify-me' }],
      activity: { intervalMs: 1000 },
    });
    try {
      const token = running.controls.issueToken({ userId: USERS.ada, pageId: PAGES.sparse }).access_token;
      await request(running.url)
        .post(`/${PAGES.sparse}/subscribed_apps`)
        .query({ access_token: token, subscribed_fields: 'feed' })
        .expect(200);
      const events = () => receiver.received.filter((r) => r.method === 'POST').length;
      await new Promise((r) => setTimeout(r, 1300));
      await running.controls.webhooksIdle();
      expect(events()).toBe(1);
      const feed = (await request(running.url).get(`/${PAGES.sparse}/feed`).query({ access_token: token }))
        .body as FeedBody;
      expect(feed.data[0]?.message).toEqual(expect.any(String));
      await running.close();
      await new Promise((r) => setTimeout(r, 1200));
      expect(events()).toBe(1);
    } finally {
      await running.close();
      await receiver.close();
    }
  });

  it('when the interval is below a second, then start refuses it', async () => {
    await expect(startEmulator({ clients: [CLIENT], activity: { intervalMs: 10 } })).rejects.toThrow(/intervalMs/);
  });
});
