/**
 * App access tokens (Facebook Login "Access Tokens", App Access Tokens):
 * from `grant_type=client_credentials`, or written `{app-id}|{app-secret}`;
 * accepted by `debug_token` and the app's own `/{app-id}/subscriptions`,
 * refused with the provider's errors elsewhere (docs/specification.md#app-tokens).
 */
import request from 'supertest';
import { CLIENT, graphError, graphGet, makeEmulator, OTHER_CLIENT, PAGES, USERS } from './helpers';
import { receiverPerTest } from './webhook-receiver';

const credentials = {
  client_id: CLIENT.clientId,
  client_secret: CLIENT.clientSecret,
  grant_type: 'client_credentials',
};

async function appToken(app: import('express').Express): Promise<string> {
  const res = await request(app).get('/v23.0/oauth/access_token').query(credentials).expect(200);
  return (res.body as { access_token: string }).access_token;
}

describe('grant_type=client_credentials', () => {
  it('when the app asks with its id and secret, then {access_token: "<app id>|…", token_type: "bearer"} and nothing else', async () => {
    const { app } = makeEmulator();
    const res = await request(app).post('/oauth/access_token').type('form').send(credentials).expect(200);
    expect(res.body).toEqual({
      access_token: expect.stringMatching(new RegExp(`^${CLIENT.clientId}\\|[A-Za-z0-9_-]{20,}$`)) as unknown,
      token_type: 'bearer',
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('when the secret is wrong, then code 1 "Error validating client secret."', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .get('/oauth/access_token')
      .query({ ...credentials, client_secret: 'nope' })
      .expect(400);
    expect(graphError(res.body)).toMatchObject({ code: 1, message: 'Error validating client secret.' });
  });
});

describe('where an app token is accepted', () => {
  it.each([
    ['from client_credentials', async (app: import('express').Express) => appToken(app)],
    ['written app-id|app-secret', () => Promise.resolve(`${CLIENT.clientId}|${CLIENT.clientSecret}`)],
  ])('when debug_token is called with an app token %s, then it describes the input token', async (_how, make) => {
    const { app, controls } = makeEmulator();
    const input = controls.issueToken({ userId: USERS.ada }).access_token;
    const res = await request(app)
      .get('/v23.0/debug_token')
      .query({ input_token: input, access_token: await make(app) })
      .expect(200);
    expect(res.body.data).toMatchObject({ app_id: CLIENT.clientId, user_id: USERS.ada, is_valid: true });
  });

  it('when the app token names the app with a wrong secret, then 190 and no answer about the input token', async () => {
    const { app, controls } = makeEmulator();
    const input = controls.issueToken({ userId: USERS.ada }).access_token;
    const res = await request(app)
      .get('/v23.0/debug_token')
      .query({ input_token: input, access_token: `${CLIENT.clientId}|wrong` })
      .expect(400);
    expect(graphError(res.body).code).toBe(190);
  });

  describe('/{app-id}/subscriptions', () => {
    const receiver = receiverPerTest();

    it('when the app sets its page webhook, then the callback is verified and the subscription is listed', async () => {
      const { app } = makeEmulator();
      const token = await appToken(app);
      await request(app)
        .post(`/v23.0/${CLIENT.clientId}/subscriptions`)
        .type('form')
        .send({
          access_token: token,
          object: 'page',
          callback_url: receiver.current.url,
          verify_token: 'verify-me',
          fields: 'feed',
        })
        .expect(200, { success: true });
      expect(receiver.current.received.filter((r) => r.method === 'GET')).toHaveLength(1);
      const res = await graphGet(app, `/v23.0/${CLIENT.clientId}/subscriptions`, token).expect(200);
      expect(res.body).toEqual({
        data: [
          {
            object: 'page',
            callback_url: receiver.current.url,
            active: true,
            fields: [{ name: 'feed', version: 'v23.0' }],
          },
        ],
      });
    });

    it('when the callback does not echo the challenge, then 2200 and nothing is kept', async () => {
      const { app } = makeEmulator();
      const token = `${CLIENT.clientId}|${CLIENT.clientSecret}`;
      const res = await request(app)
        .post(`/v23.0/${CLIENT.clientId}/subscriptions`)
        .type('form')
        .send({
          access_token: token,
          object: 'page',
          callback_url: receiver.current.url,
          verify_token: 'not-it',
          fields: 'feed',
        })
        .expect(400);
      expect(graphError(res.body).code).toBe(2200);
      const list = await graphGet(app, `/v23.0/${CLIENT.clientId}/subscriptions`, token).expect(200);
      expect(list.body).toEqual({ data: [] });
    });

    it("when another app's token or a user token is used, then the provider's refusals", async () => {
      const { app, controls } = makeEmulator();
      const other = await request(app)
        .get(`/v23.0/${CLIENT.clientId}/subscriptions`)
        .query({ access_token: `${OTHER_CLIENT.clientId}|${OTHER_CLIENT.clientSecret}` })
        .expect(400);
      expect(graphError(other.body).code).toBe(100);
      const user = controls.issueToken({ userId: USERS.ada }).access_token;
      const res = await graphGet(app, `/v23.0/${CLIENT.clientId}/subscriptions`, user).expect(400);
      expect(graphError(res.body)).toMatchObject({
        code: 15,
        message: '(#15) This method must be called with an app access_token.',
      });
    });
  });
});

describe('where an app token is refused', () => {
  it('when /me is read with an app token, then 2500 "An active access token must be used…"', async () => {
    const { app } = makeEmulator();
    const res = await graphGet(app, '/v23.0/me', await appToken(app)).expect(400);
    expect(graphError(res.body)).toMatchObject({
      code: 2500,
      type: 'OAuthException',
      message: 'An active access token must be used to query information about the current user.',
    });
  });

  it('when a Page or its feed is read with an app token, then the permission error (#10) a page token avoids', async () => {
    const { app } = makeEmulator();
    const token = `${CLIENT.clientId}|${CLIENT.clientSecret}`;
    for (const path of [`/v23.0/${PAGES.bakery}`, `/v23.0/${PAGES.bakery}/feed`]) {
      const res = await graphGet(app, path, token).expect(403);
      expect(graphError(res.body)).toMatchObject({
        code: 10,
        message: expect.stringContaining('pages_read_engagement'),
      });
    }
  });

  it('when a page subscription is made with an app token, then 210: it takes a page token', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .post(`/v23.0/${PAGES.bakery}/subscribed_apps`)
      .query({ access_token: `${CLIENT.clientId}|${CLIENT.clientSecret}`, subscribed_fields: 'feed' })
      .expect(400);
    expect(graphError(res.body).code).toBe(210);
  });

  it('when a long-lived exchange is attempted with an app token, then 190 as for any token that is not a user token', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .get('/oauth/access_token')
      .query({ ...credentials, grant_type: 'fb_exchange_token', fb_exchange_token: await appToken(app) })
      .expect(400);
    expect(graphError(res.body).code).toBe(190);
  });
});
