/** `GET /{version}/debug_token` (docs/specification.md#debug-token). */
import request from 'supertest';
import { CLIENT, makeEmulator, OTHER_CLIENT, PAGES, USERS, userToken } from './helpers';

const appToken = `${CLIENT.clientId}|${CLIENT.clientSecret}`;

function debug(app: import('express').Express, input: string, caller = appToken) {
  return request(app).get('/v23.0/debug_token').query({ input_token: input, access_token: caller });
}

interface Debugged {
  data: Record<string, unknown> & { scopes: string[]; granular_scopes?: { scope: string; target_ids?: string[] }[] };
}

describe('GET /debug_token', () => {
  it('when the app token asks about a user token, then app, type, person, times and permissions come back as documented', async () => {
    const { app, clock } = makeEmulator();
    const token = await userToken(app, { pages: [PAGES.bakery] });
    const res = await debug(app, token).expect(200);
    const { data } = res.body as Debugged;
    expect(data).toMatchObject({
      app_id: CLIENT.clientId,
      type: 'USER',
      application: CLIENT.name,
      is_valid: true,
      issued_at: Math.floor(clock.t / 1000),
      expires_at: Math.floor(clock.t / 1000) + 7200,
      user_id: USERS.ada,
    });
    expect(data.scopes).toEqual([
      'public_profile',
      'pages_show_list',
      'pages_read_engagement',
      'pages_read_user_content',
    ]);
    expect(data.granular_scopes).toContainEqual({ scope: 'pages_show_list', target_ids: [PAGES.bakery] });
    expect(typeof data.data_access_expires_at).toBe('number');
  });

  it('when a user token of the same app asks, then it is answered too', async () => {
    const { app } = makeEmulator();
    const token = await userToken(app);
    const res = await debug(app, token, token).expect(200);
    expect((res.body as Debugged).data.is_valid).toBe(true);
  });

  it('when the input is a page token, then type PAGE and profile_id name the page', async () => {
    const { app, controls } = makeEmulator();
    const { access_token } = controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery, longLived: true });
    const { data } = (await debug(app, access_token).expect(200)).body as Debugged;
    expect(data).toMatchObject({ type: 'PAGE', profile_id: PAGES.bakery, expires_at: 0, is_valid: true });
  });

  it('when the input token has expired, then is_valid is false with the 190 error inside data', async () => {
    const { app, controls } = makeEmulator();
    const token = await userToken(app);
    controls.expireTokens({ token });
    const { data } = (await debug(app, token).expect(200)).body as Debugged;
    expect(data.is_valid).toBe(false);
    expect(data.error).toMatchObject({ code: 190, subcode: 463 });
  });

  it('when the input token is unknown or belongs to another app, then the answer says only that it is invalid', async () => {
    const { app, controls } = makeEmulator();
    const other = controls.issueToken({ userId: USERS.ada, clientId: OTHER_CLIENT.clientId }).access_token;
    for (const input of ['EAAnonsense', other]) {
      const res = await debug(app, input).expect(200);
      expect(res.body).toEqual({
        data: { error: { code: 190, message: 'Invalid OAuth access token.' }, is_valid: false, scopes: [] },
      });
    }
  });

  it('when the app token has the wrong secret, or input_token or the caller is missing, then the provider errors', async () => {
    const { app } = makeEmulator();
    const wrong = await debug(app, 'x', `${CLIENT.clientId}|nope`).expect(400);
    expect((wrong.body as { error: { code: number } }).error.code).toBe(190);
    const noInput = await request(app).get('/v23.0/debug_token').query({ access_token: appToken }).expect(400);
    expect((noInput.body as { error: { message: string } }).error.message).toContain('input_token');
    const noCaller = await request(app).get('/v23.0/debug_token').query({ input_token: 'x' }).expect(400);
    expect((noCaller.body as { error: { code: number } }).error.code).toBe(104);
  });
});
