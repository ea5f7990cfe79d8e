/**
 * Request bodies the provider reads like a form: JSON (its SDKs send it) and
 * multipart/form-data (its own curl samples use `-F`), on the token endpoint
 * and on Graph POSTs (docs/specification.md#sending-credentials).
 */
import request from 'supertest';
import { CLIENT, codeFor, graphError, makeEmulator, OLDER_CLIENTS, PAGES, USERS } from './helpers';

const exchangeBody = (code: string): Record<string, string> => ({
  client_id: CLIENT.clientId,
  client_secret: CLIENT.clientSecret,
  redirect_uri: CLIENT.redirectUri,
  code,
});

describe('request bodies as JSON', () => {
  it('when the code exchange is POSTed as application/json, then it is read like the form', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .post('/v23.0/oauth/access_token')
      .send(exchangeBody(await codeFor(app)))
      .expect(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', access_token: expect.stringMatching(/^EAA/) as unknown });
  });

  it('when a Graph POST sends its token and an array parameter in JSON, then both are read (the array as the JSON list the API takes)', async () => {
    const { app, controls } = makeEmulator({
      clients: [{ ...CLIENT, webhookUrl: 'http://127.0.0.1:9/never', webhookVerifyToken: 'v' }],
    });
    const token = controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    const res = await request(app)
      .post(`/v23.0/${PAGES.bakery}/subscribed_apps`)
      .send({ access_token: token, subscribed_fields: ['nonsense'] })
      .expect(400);
    // The array reached the field check: the body was read, token included.
    expect(graphError(res.body)).toMatchObject({ code: 100, message: expect.stringContaining('subscribed_fields[0]') });
  });

  it('when numbers and booleans are sent in JSON, then they are read as their text', async () => {
    // An app created before 2026-11-04, which may still send a POST with method=get.
    const { app, controls } = makeEmulator({ clients: OLDER_CLIENTS });
    const token = controls.issueToken({ userId: USERS.ada, scopes: ['pages_show_list'] }).access_token;
    const res = await request(app)
      .post('/v23.0/me/accounts')
      .send({ access_token: token, method: 'get', limit: 1, fields: 'id' })
      .expect(200);
    expect(res.body.data).toHaveLength(1);
  });

  it('when the JSON body is not an object, then 400 with code 100 and nothing else happens', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .post('/v23.0/oauth/access_token')
      .set('Content-Type', 'application/json')
      .send('["client_id"]')
      .expect(400);
    expect(graphError(res.body)).toMatchObject({ code: 100, type: 'OAuthException' });
  });

  it('when the JSON body is malformed, then 400 with code 100', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .post('/v23.0/oauth/access_token')
      .set('Content-Type', 'application/json')
      .send('{"client_id":')
      .expect(400);
    expect(graphError(res.body).code).toBe(100);
  });
});

describe('request bodies as multipart/form-data', () => {
  it('when the code exchange is POSTed as multipart, then it is read like the form', async () => {
    const { app } = makeEmulator();
    let req = request(app).post('/v23.0/oauth/access_token');
    for (const [name, value] of Object.entries(exchangeBody(await codeFor(app)))) req = req.field(name, value);
    const res = await req.expect(200);
    expect(res.body.token_type).toBe('bearer');
  });

  it('when a Graph POST carries its token and method=get as multipart fields, then it is answered', async () => {
    // An app created before 2026-11-04, which may still send a POST with method=get.
    const { app, controls } = makeEmulator({ clients: OLDER_CLIENTS });
    const token = controls.issueToken({ userId: USERS.ada }).access_token;
    const res = await request(app)
      .post('/v23.0/me')
      .field('access_token', token)
      .field('method', 'get')
      .field('fields', 'id,name')
      .expect(200);
    expect(res.body).toEqual({ id: USERS.ada, name: 'Ada Lovelace' });
  });

  it('when a multipart field is repeated, then 100 "must be a single value", as for a form', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .post('/v23.0/oauth/access_token')
      .field('client_id', CLIENT.clientId)
      .field('client_id', CLIENT.clientId)
      .expect(400);
    expect(graphError(res.body)).toMatchObject({ code: 100, message: 'Param client_id must be a single value.' });
  });

  it('when a multipart body carries a file, then 400 with code 100 (nothing here takes uploads)', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .post('/v23.0/oauth/access_token')
      .field('client_id', CLIENT.clientId)
      .attach('source', Buffer.from('GIF89a'), 'cake.gif')
      .expect(400);
    expect(graphError(res.body).code).toBe(100);
  });

  it('when a multipart field is larger than the form limit, then 413 with code 100', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .post('/v23.0/oauth/access_token')
      .field('client_id', 'x'.repeat(200 * 1024))
      .expect(413);
    expect(graphError(res.body).code).toBe(100);
  });
});
