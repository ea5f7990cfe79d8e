import request from 'supertest';
import {
  graphError,
  graphGet,
  makeEmulator,
  OLDER_CLIENTS,
  OTHER_CLIENT,
  PAGES,
  pageToken,
  proof,
  USERS,
  userToken,
} from './helpers';

// An app created before 2026-11-04: it may still send tokens in a POST with method=get (README#legacy-features).
describe('Graph API credentials', () => {
  const { app, controls } = makeEmulator({ clients: OLDER_CLIENTS });
  let token: string;
  beforeAll(async () => {
    token = await userToken(app);
  });
  beforeEach(() => controls.clearLog());

  it('when the token is in the query, then /me answers and the log says "query"', async () => {
    const res = await request(app).get('/me').query({ access_token: token, fields: 'id,name' }).expect(200);
    expect(res.body).toEqual({ id: USERS.ada, name: 'Ada Lovelace' });
    expect(controls.requestLog.at(-1)).toMatchObject({
      tokenVia: 'query',
      tokenKind: 'user',
      status: 200,
      query: { access_token: token },
    });
  });

  it('when the token is in a form body with method=get, then the POST is served as a GET and the log says "form"', async () => {
    const res = await request(app)
      .post('/me')
      .type('form')
      .send({ method: 'get', fields: 'id', access_token: token })
      .expect(200);
    expect(res.body).toEqual({ id: USERS.ada });
    const entry = controls.requestLog.at(-1);
    expect(entry).toMatchObject({ method: 'POST', tokenVia: 'form', form: { method: 'get', access_token: token } });
    expect(entry?.query).toEqual({});
  });

  it('when the token is in an Authorization: Bearer header, then it is accepted and the log says "header"', async () => {
    await graphGet(app, '/v23.0/me', token).expect(200);
    expect(controls.requestLog.at(-1)).toMatchObject({ tokenVia: 'header', path: '/v23.0/me' });
  });

  it('when the path has any vX.Y prefix or none, then it is the same API', async () => {
    for (const path of ['/me', '/v2.0/me', '/v99.12/me']) {
      const res = await graphGet(app, path, token).expect(200);
      expect(res.body.id).toBe(USERS.ada);
    }
  });

  it('when a POST carries no method=get, then it is an unsupported post request (100/33)', async () => {
    const res = await request(app).post('/me').type('form').send({ access_token: token }).expect(400);
    expect(graphError(res.body)).toMatchObject({ code: 100, error_subcode: 33, type: 'GraphMethodException' });
  });

  it('when no token is sent, then 104 "An access token is required to request this resource."', async () => {
    const res = await request(app).get('/me').expect(400);
    expect(graphError(res.body)).toMatchObject({
      code: 104,
      message: 'An access token is required to request this resource.',
      type: 'OAuthException',
    });
  });

  it('when the token is unknown, then 190 with a WWW-Authenticate challenge', async () => {
    const res = await request(app).get('/me').set('Authorization', 'Bearer EAAnotatoken').expect(400);
    expect(graphError(res.body).code).toBe(190);
    expect(res.headers['www-authenticate']).toBe(
      'OAuth "Facebook Platform" "invalid_token" "Invalid OAuth access token - Cannot parse access token"',
    );
    expect(controls.requestLog.at(-1)?.tokenKind).toBe('unknown');
  });

  it('when appsecret_proof is the HMAC-SHA256 of the token with the app secret, then the call is served', async () => {
    await graphGet(app, '/me', token)
      .query({ appsecret_proof: proof(token) })
      .expect(200);
    expect(controls.requestLog.at(-1)?.appsecretProof).toBe(true);
  });

  it.each([
    ['computed with another secret', (t: string) => proof(t, OTHER_CLIENT.clientSecret)],
    ['upper-case hex', (t: string) => proof(t).toUpperCase()],
    ['garbage', () => 'zz'],
    ['empty', () => ''],
  ])(
    'when appsecret_proof is %s, then 100 "Invalid appsecret_proof provided in the API argument"',
    async (_n, make) => {
      const res = await request(app)
        .post('/me')
        .type('form')
        .send({ method: 'get', access_token: token, appsecret_proof: make(token) })
        .expect(400);
      expect(graphError(res.body)).toMatchObject({
        code: 100,
        message: 'Invalid appsecret_proof provided in the API argument',
      });
    },
  );

  it('when a page token carries a proof, then it is checked against the secret of the app that issued it', async () => {
    const page = await pageToken(app, token, PAGES.bakery);
    await graphGet(app, `/${PAGES.bakery}`, page)
      .query({ appsecret_proof: proof(page) })
      .expect(200);
  });

  it('when a parameter is repeated, then 100, not a crash', async () => {
    const res = await request(app).get(`/me?fields=id&fields=name&access_token=${token}`).expect(400);
    expect(graphError(res.body).code).toBe(100);
  });

  it('when any Graph call answers, then it carries x-fb-trace-id, x-fb-rev and facebook-api-version', async () => {
    const res = await graphGet(app, '/v21.0/me', token).expect(200);
    expect(res.headers['x-fb-trace-id']).toMatch(/^[A-Za-z0-9]{11}$/);
    expect(res.headers['x-fb-rev']).toMatch(/^\d+$/);
    expect(res.headers['facebook-api-version']).toBe('v21.0');
    expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
  });
});
