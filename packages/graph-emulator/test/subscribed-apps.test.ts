import request from 'supertest';
import { BEFORE_V27, CLIENT, graphError, makeEmulator, PAGES, USERS } from './helpers';
import { receiverPerTest } from './webhook-receiver';

describe('/{page-id}/subscribed_apps', () => {
  const receiver = receiverPerTest();

  const setup = (scopes?: string[], userId: string = USERS.ada, pageId: string = PAGES.bakery) => {
    const emulator = makeEmulator({
      clients: [{ ...CLIENT, webhookUrl: receiver.current.url, webhookVerifyToken: 'verify-me' }],
    });
    const token = emulator.controls.issueToken({ userId, pageId, ...(scopes ? { scopes } : {}) }).access_token;
    const api = (method: 'get' | 'post' | 'delete', query: Record<string, string> = {}, page = pageId) =>
      request(emulator.app)
        [method](`/v23.0/${page}/subscribed_apps`)
        .query({ access_token: token, ...query });
    return { ...emulator, token, api };
  };

  it('when an app subscribes a page with its page token, then {"success":true}, the list names it and DELETE removes it', async () => {
    const { api, controls } = setup();
    expect((await api('get').expect(200)).body).toEqual({ data: [] });
    expect((await api('post', { subscribed_fields: 'feed' }).expect(200)).body).toEqual({ success: true });
    expect((await api('get').expect(200)).body).toEqual({
      data: [{ name: CLIENT.name, id: CLIENT.clientId, subscribed_fields: ['feed'] }],
    });
    expect(controls.subscriptions(PAGES.bakery)).toEqual([{ clientId: CLIENT.clientId, fields: ['feed'] }]);
    expect((await api('delete').expect(200)).body).toEqual({ success: true });
    expect((await api('get').expect(200)).body).toEqual({ data: [] });
  });

  it('when the fields come as a JSON array, or with the POST method override from an app created before 2026-11-04, then they are taken the same way', async () => {
    const { app, api, token, controls } = setup();
    controls.setAppCreated(BEFORE_V27);
    await api('post', { subscribed_fields: '["feed","mention"]' }).expect(200);
    expect((await api('get').expect(200)).body.data[0].subscribed_fields).toEqual(['feed', 'mention']);
    await request(app)
      .post(`/v23.0/${PAGES.bakery}/subscribed_apps`)
      .type('form')
      .send({ access_token: token, method: 'delete' })
      .expect(200);
    expect((await api('get').expect(200)).body).toEqual({ data: [] });
  });

  it('when subscribed_fields is missing, then error 100 and nothing is subscribed', async () => {
    const { api, controls } = setup();
    const res = await api('post').expect(400);
    expect(graphError(res.body)).toMatchObject({ code: 100, type: 'OAuthException' });
    expect(graphError(res.body).message).toContain('subscribed_fields');
    expect(controls.subscriptions(PAGES.bakery)).toEqual([]);
  });

  it('when subscribed_fields names an unknown field, then error 100 naming it', async () => {
    const { api } = setup();
    const res = await api('post', { subscribed_fields: 'feed,bogus' }).expect(400);
    expect(graphError(res.body).code).toBe(100);
    expect(graphError(res.body).message).toMatch(/subscribed_fields\[1\] must be one of \{feed, .*\} - got "bogus"/);
  });

  it('when the token is a user token, then 210 (a page token is required)', async () => {
    const { app, controls } = setup();
    const user = controls.issueToken({ userId: USERS.ada }).access_token;
    const res = await request(app)
      .post(`/v23.0/${PAGES.bakery}/subscribed_apps`)
      .query({ access_token: user, subscribed_fields: 'feed' })
      .expect(400);
    expect(graphError(res.body).code).toBe(210);
  });

  it('when pages_manage_metadata was not granted, then 200 naming the permission and nothing is subscribed', async () => {
    const { api, controls } = setup(['pages_show_list', 'pages_read_engagement', 'pages_read_user_content']);
    const res = await api('post', { subscribed_fields: 'feed' }).expect(403);
    expect(graphError(res.body)).toMatchObject({ code: 200, type: 'OAuthException' });
    expect(graphError(res.body).message).toContain("'pages_manage_metadata'");
    await api('get').expect(403);
    expect(controls.subscriptions(PAGES.bakery)).toEqual([]);
  });

  it('when the page token belongs to another page, then 200 and nothing is subscribed', async () => {
    const { api, controls } = setup();
    const res = await api('post', { subscribed_fields: 'feed' }, PAGES.sparse).expect(403);
    expect(graphError(res.body).code).toBe(200);
    expect(controls.subscriptions(PAGES.sparse)).toEqual([]);
  });

  it('when the first subscription is made, then the callback is verified with the verify token and a challenge it must echo', async () => {
    const { api } = setup();
    await api('post', { subscribed_fields: 'feed' }).expect(200);
    await api('post', { subscribed_fields: 'feed' }).expect(200);
    const gets = receiver.current.received.filter((r) => r.method === 'GET');
    expect(gets).toHaveLength(1);
    expect(gets[0]!.url.pathname).toBe('/webhooks/facebook');
    expect(gets[0]!.url.searchParams.get('hub.mode')).toBe('subscribe');
    expect(gets[0]!.url.searchParams.get('hub.verify_token')).toBe('verify-me');
    expect(gets[0]!.url.searchParams.get('hub.challenge')).toMatch(/^\d+$/);
  });

  it('when the callback does not echo the challenge, then error 2200 and no subscription', async () => {
    const { api, controls } = setup();
    receiver.current.answer = () => ({ status: 200, body: 'ok' });
    const res = await api('post', { subscribed_fields: 'feed' }).expect(400);
    expect(graphError(res.body).code).toBe(2200);
    expect(graphError(res.body).message).toContain('does not match challenge');
    expect(controls.subscriptions(PAGES.bakery)).toEqual([]);
    expect(controls.webhookDeliveries()).toMatchObject([{ kind: 'verification', state: 'failed' }]);
  });

  it('when the verify token is wrong, then the callback answers 403 and the subscription fails with 2200', async () => {
    const emulator = makeEmulator({
      clients: [{ ...CLIENT, webhookUrl: receiver.current.url, webhookVerifyToken: 'other' }],
    });
    const token = emulator.controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    const res = await request(emulator.app)
      .post(`/${PAGES.bakery}/subscribed_apps`)
      .query({ access_token: token, subscribed_fields: 'feed' })
      .expect(400);
    expect(graphError(res.body).message).toContain('HTTP Status Code = 403');
  });
});
