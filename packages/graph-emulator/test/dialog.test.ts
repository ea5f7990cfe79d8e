import request from 'supertest';
import {
  CLIENT,
  DEFAULT_SCOPE,
  type DialogParams,
  dialogQuery,
  makeEmulator,
  openDialog,
  OTHER_CLIENT,
  requestIdOf,
  runDialog,
  USERS,
} from './helpers';

describe('GET /vX.Y/dialog/oauth', () => {
  const { app } = makeEmulator();

  it('when the request is valid, then an accessible HTML page shows the app, every permission checked, the seeded users, Continue and Cancel', async () => {
    const res = await openDialog(app).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<html lang="en">/);
    expect(res.text).toMatch(/<main\b/);
    expect(res.text).toMatch(/<h1[^>]*>Pagelight test wants to access your Facebook Pages<\/h1>/);
    for (const perm of DEFAULT_SCOPE.split(' ')) {
      expect(res.text).toMatch(
        new RegExp(`<input type="checkbox" id="perm-${perm}" name="perm" value="${perm}" checked>`),
      );
      expect(res.text).toContain(`<label for="perm-${perm}">`);
    }
    for (const name of ['Ada Lovelace', 'Grace Hopper', 'Alan Turing']) expect(res.text).toContain(name);
    expect(res.text).toMatch(/<button[^>]*value="continue"[^>]*>Continue<\/button>/);
    expect(res.text).toMatch(/<button[^>]*value="cancel"[^>]*>Cancel<\/button>/);
    expect(res.text).not.toMatch(/<script|style=|<style/i);
    expect(res.text).toContain('href="/__assets/dialog.css"');
  });

  it('when the page is served, then its CSP forbids scripts and framing and allows the form to lead to the registered callback origin', async () => {
    const res = await openDialog(app).expect(200);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("form-action 'self' http://app.test");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('when the scope uses commas, then each permission is listed once', async () => {
    const res = await openDialog(app, { scope: 'pages_show_list,pages_read_engagement, pages_show_list' }).expect(200);
    expect(res.text.match(/name="perm"/g)).toHaveLength(2);
  });

  it('when the app name holds HTML, then it is escaped', async () => {
    const { app: a } = makeEmulator({ clients: [{ ...CLIENT, name: '<img src=x onerror=alert(1)>' }] });
    const res = await openDialog(a).expect(200);
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('when its stylesheet is requested, then the emulator serves it as text/css', async () => {
    const res = await request(app).get('/__assets/dialog.css').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/css/);
    expect(res.text).toContain('.card');
  });

  const invalid: [string, DialogParams | Record<string, string>][] = [
    ['the client_id is unknown', { client_id: '999' }],
    ['the client_id is missing', { client_id: undefined }],
    ['the redirect_uri differs from the registered one', { redirect_uri: 'http://app.test/auth/callback/' }],
    ['the redirect_uri is another host', { redirect_uri: 'https://evil.test/auth/callback' }],
    ['the redirect_uri is missing', { redirect_uri: undefined }],
    ['the response_type is id_token', { response_type: 'id_token' }],
    ['a permission is unknown', { scope: 'pages_show_list made_up_permission' }],
    ['the code_challenge_method is unknown', { code_challenge: 'a'.repeat(43), code_challenge_method: 'S512' }],
    ['the code_challenge is too short', { code_challenge: 'abc', code_challenge_method: 'S256' }],
  ];
  it.each(invalid)('when %s, then a 400 error page and never a redirect', async (_name, params) => {
    const res = await openDialog(app, params);
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<h1[^>]*>/);
    expect(res.text).not.toContain('name="request_id"');
  });

  it('when the redirect_uri is not the registered one, then the page shows both URIs, which variable to fix, and a link back to the app', async () => {
    const res = await openDialog(app, { redirect_uri: 'http://localhost:4100/auth/callback?<b>' }).expect(400);
    expect(res.text).toContain('URL blocked');
    expect(res.text).toContain(`<code>${CLIENT.redirectUri}</code>`);
    expect(res.text).toContain('<code>http://localhost:4100/auth/callback?&lt;b&gt;</code>');
    expect(res.text).toMatch(/BASE_URL/);
    expect(res.text).toContain('<a href="http://app.test/">');
  });

  it('when a parameter is repeated, then a 400 error page', async () => {
    const res = await request(app).get(
      `/v23.0/dialog/oauth?client_id=${CLIENT.clientId}&redirect_uri=${encodeURIComponent(CLIENT.redirectUri)}&state=a&state=b`,
    );
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  it('when response_type is absent, then it defaults to code', async () => {
    await openDialog(app, { response_type: undefined }).expect(200);
  });

  it('when the version segment is not vX.Y, then 404 and no dialog', async () => {
    await request(app).get('/latest/dialog/oauth').query(dialogQuery()).expect(404);
  });
});

describe('POST /vX.Y/dialog/oauth/decision', () => {
  const { app } = makeEmulator();

  it('when the person continues, then 302 to redirect_uri with code and the exact state, and #_=_', async () => {
    const state = 'a b+c/=&ü';
    const location = await runDialog(app, { state });
    expect(location.startsWith(`${CLIENT.redirectUri}?code=`)).toBe(true);
    expect(location.endsWith('#_=_')).toBe(true);
    const url = new URL(location);
    expect(url.searchParams.get('state')).toBe(state);
    expect(url.searchParams.get('code')).toMatch(/^AQ[A-Za-z0-9_-]{40,}$/);
  });

  it('when the person cancels, then 302 with the provider access_denied parameters and the state', async () => {
    const location = await runDialog(app, { state: 'xyz' }, { decision: 'cancel' });
    expect(location).toBe(
      `${CLIENT.redirectUri}?error=access_denied&error_code=200&error_description=Permissions+error&error_reason=user_denied&state=xyz#_=_`,
    );
  });

  it('when no state was sent, then none is echoed', async () => {
    const location = await runDialog(app, { state: undefined });
    expect(new URL(location).searchParams.has('state')).toBe(false);
    const cancelled = await runDialog(app, { state: undefined }, { decision: 'cancel' });
    expect(cancelled).not.toContain('state=');
  });

  it('when the registered redirect_uri has a query, then the parameters are appended with &', async () => {
    const location = await runDialog(app, { client_id: OTHER_CLIENT.clientId, redirect_uri: OTHER_CLIENT.redirectUri });
    expect(location).toMatch(/^https:\/\/other\.test\/cb\?tenant=7&code=[^&]+&state=state-123#_=_$/);
  });

  it('when the decision is replayed, then the request id is no longer valid (400 page, no redirect)', async () => {
    const page = await openDialog(app).expect(200);
    const form = { request_id: requestIdOf(page.text), decision: 'continue', user_id: USERS.ada };
    await request(app).post('/v23.0/dialog/oauth/decision').type('form').send(form).expect(302);
    const again = await request(app).post('/v23.0/dialog/oauth/decision').type('form').send(form).expect(400);
    expect(again.headers.location).toBeUndefined();
  });

  it('when the request id is forged, then 400 and no redirect (redirect_uri comes only from the server-side request)', async () => {
    const res = await request(app)
      .post('/v23.0/dialog/oauth/decision')
      .type('form')
      .send({ request_id: 'forged', decision: 'continue', user_id: USERS.ada, redirect_uri: 'https://evil.test' })
      .expect(400);
    expect(res.headers.location).toBeUndefined();
  });

  it('when the chosen user is not seeded, then 400', async () => {
    const page = await openDialog(app).expect(200);
    await request(app)
      .post('/v23.0/dialog/oauth/decision')
      .type('form')
      .send({ request_id: requestIdOf(page.text), decision: 'continue', user_id: '42' })
      .expect(400);
  });

  it('when the dialog request is older than 30 minutes, then it has expired', async () => {
    const emu = makeEmulator();
    const page = await openDialog(emu.app).expect(200);
    emu.clock.advance(31 * 60_000);
    await request(emu.app)
      .post('/v23.0/dialog/oauth/decision')
      .type('form')
      .send({ request_id: requestIdOf(page.text), decision: 'continue', user_id: USERS.ada })
      .expect(400);
  });

  it('when the dialog is opened without a version prefix, then it works the same', async () => {
    const page = await request(app).get('/dialog/oauth').query(dialogQuery()).expect(200);
    expect(page.text).toContain('action="/dialog/oauth/decision"');
  });
});
