import request from 'supertest';
import { EMULATOR_TOKEN_PREFIX } from '../src';
import {
  CLIENT,
  codeFor,
  exchange,
  graphError,
  graphGet,
  longLivedParams,
  makeEmulator,
  OTHER_CLIENT,
  USERS,
  userToken,
} from './helpers';

const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('/oauth/access_token — authorization code', () => {
  it('when the code is exchanged by form POST, then a bearer user token with expires_in, as application/json; charset=UTF-8, not cacheable', async () => {
    const { app } = makeEmulator();
    const res = await exchange(app, await codeFor(app)).expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^EAA_EMULATOR_[A-Za-z0-9]{100,}$/),
      token_type: 'bearer',
      expires_in: 7200,
    });
  });

  it('when the code is exchanged by GET with a query (the reference style), then it works too, with or without the version prefix', async () => {
    const { app } = makeEmulator({ userTokenTtlSec: 3600 });
    for (const path of ['/v23.0/oauth/access_token', '/oauth/access_token']) {
      const code = await codeFor(app);
      const res = await request(app)
        .get(path)
        .query({
          client_id: CLIENT.clientId,
          redirect_uri: CLIENT.redirectUri,
          client_secret: CLIENT.clientSecret,
          code,
        })
        .expect(200);
      expect(res.body.expires_in).toBe(3600);
    }
  });

  it('when the client authenticates with HTTP Basic (RFC 6749 §2.3.1) and sends grant_type=authorization_code, then it works', async () => {
    const { app } = makeEmulator();
    const code = await codeFor(app);
    await request(app)
      .post('/v23.0/oauth/access_token')
      .set('Authorization', basic(CLIENT.clientId, CLIENT.clientSecret))
      .set('Accept', 'application/json')
      .type('form')
      .send({ grant_type: 'authorization_code', code, redirect_uri: CLIENT.redirectUri })
      .expect(200);
  });

  it('when the code is used twice, then 100 "This authorization code has been used." (36009) and the first token is revoked (RFC 6749 §4.1.2)', async () => {
    const { app } = makeEmulator();
    const code = await codeFor(app);
    const first = await exchange(app, code).expect(200);
    const again = await exchange(app, code).expect(400);
    expect(graphError(again.body)).toMatchObject({
      message: 'This authorization code has been used.',
      type: 'OAuthException',
      code: 100,
      error_subcode: 36009,
      fbtrace_id: expect.stringMatching(/^[A-Za-z0-9]{11}$/),
    });
    const me = await graphGet(app, '/me', first.body.access_token).expect(400);
    expect(graphError(me.body)).toMatchObject({ code: 190, error_subcode: 460 });
  });

  it('when the code is older than codeTtlMs, then 100 "This authorization code has expired." (36007)', async () => {
    const emu = makeEmulator({ codeTtlMs: 60_000 });
    const code = await codeFor(emu.app);
    emu.clock.advance(60_001);
    const res = await exchange(emu.app, code).expect(400);
    expect(graphError(res.body)).toMatchObject({
      message: 'This authorization code has expired.',
      code: 100,
      error_subcode: 36007,
    });
  });

  it('when the redirect_uri differs from the dialog one, then 100 with subcode 36008', async () => {
    const { app } = makeEmulator();
    const res = await exchange(app, await codeFor(app), { redirect_uri: `${CLIENT.redirectUri}/x` }).expect(400);
    expect(graphError(res.body)).toMatchObject({
      code: 100,
      error_subcode: 36008,
      message: expect.stringContaining(
        'Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
      ),
    });
  });

  it('when another registered client presents the code, then 100/36008 (codes are bound to their client)', async () => {
    const { app } = makeEmulator();
    const res = await exchange(app, await codeFor(app), {
      client_id: OTHER_CLIENT.clientId,
      client_secret: OTHER_CLIENT.clientSecret,
      // Its own registered redirect_uri, so the code's binding is what refuses it (not the domain check, 191).
      redirect_uri: OTHER_CLIENT.redirectUri,
    }).expect(400);
    expect(graphError(res.body)).toMatchObject({ code: 100, error_subcode: 36008 });
  });

  it('when a rejected attempt precedes the right one, then the code still works (only success consumes it)', async () => {
    const { app } = makeEmulator();
    const code = await codeFor(app);
    await exchange(app, code, { client_secret: 'wrong' }).expect(400);
    await exchange(app, code).expect(200);
  });

  const failures: [string, number, string, Record<string, string>][] = [
    ['the client is unknown', 101, 'Error validating application. Invalid application ID.', { client_id: '999' }],
    ['client_id is missing', 101, 'Missing client_id parameter.', { client_id: '' }],
    ['redirect_uri is missing', 100, 'Missing redirect_uri parameter.', { redirect_uri: '' }],
    ['the code is missing', 100, 'Missing code parameter.', { code: '' }],
    ['the code is unknown', 100, 'Invalid verification code format.', { code: 'AQnope' }],
    ['grant_type is unsupported', 100, 'Unsupported grant_type: password', { grant_type: 'password' }],
  ];
  it.each(failures)('when %s, then 400 with code %i: %s', async (_name, code, message, override) => {
    const { app } = makeEmulator();
    const form: Record<string, string> = {
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
      redirect_uri: CLIENT.redirectUri,
      code: await codeFor(app),
      ...override,
    };
    for (const [k, v] of Object.entries(form)) if (v === '') delete form[k];
    const res = await request(app).post('/oauth/access_token').type('form').send(form).expect(400);
    expect(graphError(res.body)).toMatchObject({ code, message, type: 'OAuthException' });
  });

  it('when the client secret is wrong, then 400 with code 1 "Error validating client secret." (OAuthException), without is_transient, as captured from the provider', async () => {
    // docs/specification.md#client-authentication: the body client libraries report from the provider.
    const { app } = makeEmulator();
    const res = await exchange(app, await codeFor(app), { client_secret: 'nope' }).expect(400);
    expect(res.body).toEqual({
      error: {
        message: 'Error validating client secret.',
        type: 'OAuthException',
        code: 1,
        fbtrace_id: expect.stringMatching(/^[A-Za-z0-9]{11}$/) as unknown,
      },
    });
  });

  it('when Basic and form credentials disagree, then the request is refused', async () => {
    const { app } = makeEmulator();
    const res = await exchange(app, await codeFor(app))
      .set('Authorization', basic(CLIENT.clientId, 'other-secret'))
      .expect(400);
    expect(graphError(res.body).message).toBe('Error validating client secret.');
  });

  it('when a parameter is repeated, then 100 and no crash', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .post('/oauth/access_token')
      .type('form')
      .send('code=a&code=b&client_id=1')
      .expect(400);
    expect(graphError(res.body).code).toBe(100);
  });
});

describe('/oauth/access_token — fb_exchange_token', () => {
  it('when a short-lived user token is exchanged, then a new user token lives longLivedTtlSec', async () => {
    const { app } = makeEmulator({ longLivedTtlSec: 5_184_000 });
    const short = await userToken(app);
    const res = await request(app).get('/v23.0/oauth/access_token').query(longLivedParams(short)).expect(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 5_184_000 });
    expect(res.body.access_token).not.toBe(short);
  });

  it('when the page token comes from a long-lived user token, then it never expires; from a short-lived one, it expires with it', async () => {
    const emu = makeEmulator({ userTokenTtlSec: 60 });
    const short = await userToken(emu.app);
    const long = (
      await request(emu.app).post('/oauth/access_token').type('form').send(longLivedParams(short)).expect(200)
    ).body.access_token as string;
    const accountsOf = async (t: string) =>
      (await graphGet(emu.app, '/me/accounts', t).expect(200)).body.data[0].access_token as string;
    const fromShort = await accountsOf(short);
    const fromLong = await accountsOf(long);
    emu.clock.advance(100 * 24 * 3600 * 1000);
    await graphGet(emu.app, '/me', fromShort).expect(400);
    await graphGet(emu.app, '/me', fromLong).expect(200);
  });

  it('when the token to exchange is invalid, then 190', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .post('/oauth/access_token')
      .type('form')
      .send(longLivedParams('EAAbogus'))
      .expect(400);
    expect(graphError(res.body).code).toBe(190);
    expect(res.headers['www-authenticate']).toMatch(/^OAuth "Facebook Platform" "invalid_token" "/);
  });

  it('when the user token was issued to another app, then 190', async () => {
    const { app } = makeEmulator();
    const short = await userToken(app, { user: USERS.grace });
    const res = await request(app)
      .post('/oauth/access_token')
      .type('form')
      .send({
        grant_type: 'fb_exchange_token',
        client_id: OTHER_CLIENT.clientId,
        client_secret: OTHER_CLIENT.clientSecret,
        fb_exchange_token: short,
      })
      .expect(400);
    expect(graphError(res.body).code).toBe(190);
  });
});

describe('the form of an issued token (docs/specification.md#token-form)', () => {
  it('when a user, a long-lived and a page token are issued, then each is the prefix EAA_EMULATOR_ and letters and digits, which the provider never issues', async () => {
    const { app } = makeEmulator();
    const short = await userToken(app);
    const long = (await request(app).get('/oauth/access_token').query(longLivedParams(short)).expect(200)).body
      .access_token as string;
    const page = (await graphGet(app, '/me/accounts', long).expect(200)).body.data[0].access_token as string;
    expect(EMULATOR_TOKEN_PREFIX).toBe('EAA_EMULATOR_');
    for (const token of [short, long, page]) expect(token).toMatch(/^EAA_EMULATOR_[A-Za-z0-9]{128}$/);
  });
});
