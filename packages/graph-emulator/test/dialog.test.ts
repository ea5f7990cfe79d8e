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
import { attr, find, findAll, inputsNamed, textOf } from './dom';

describe('GET /vX.Y/dialog/oauth', () => {
  const { app } = makeEmulator();

  it('when the request is valid, then an accessible HTML page shows the app, every permission checked, the seeded users, Continue and Cancel', async () => {
    const res = await openDialog(app).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = find(res.text, 'html')!;
    expect([attr(html, 'lang'), attr(html, 'dir')]).toEqual(['en', 'ltr']);
    expect(find(res.text, 'main')).toBeDefined();
    expect(textOf(find(res.text, 'h1')!)).toBe('Pagelight test wants to access your Facebook Pages');
    const perms = inputsNamed(res.text, `perm_${USERS.ada}`);
    expect(perms.map((p) => p.value)).toEqual(DEFAULT_SCOPE.split(' '));
    const labelled = findAll(res.text, 'label').map((label) => attr(label, 'for'));
    for (const perm of perms) {
      expect(perm).toMatchObject({ type: 'checkbox', id: `perm-${USERS.ada}-${perm.value}`, checked: '' });
      expect(labelled).toContain(perm.id);
    }
    for (const name of ['Ada Lovelace', 'Grace Hopper', 'Alan Turing']) expect(textOf(res.text)).toContain(name);
    const buttons = findAll(res.text, 'button').map((b) => [attr(b, 'value'), textOf(b)]);
    expect(buttons).toEqual(
      expect.arrayContaining([
        ['continue', 'Continue'],
        ['cancel', 'Cancel'],
      ]),
    );
    expect(findAll(res.text, (n) => n.nodeName === 'script' || n.nodeName === 'style')).toEqual([]);
    expect(findAll(res.text, (n) => attr(n, 'style') !== undefined)).toEqual([]);
    const stylesheets = findAll(res.text, (n) => n.nodeName === 'link' && attr(n, 'rel') === 'stylesheet');
    expect(stylesheets.map((link) => attr(link, 'href'))).toEqual(['/__assets/dialog.css']);
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
    expect(inputsNamed(res.text, `perm_${USERS.ada}`)).toHaveLength(2);
  });

  it('when the app name holds HTML, then it is escaped', async () => {
    const name = '<img src=x onerror=alert(1)>';
    const { app: a } = makeEmulator({ clients: [{ ...CLIENT, name }] });
    const res = await openDialog(a).expect(200);
    expect(findAll(res.text, 'img')).toEqual([]);
    expect(textOf(res.text)).toContain(name);
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
    expect(find(res.text, 'h1')).toBeDefined();
    expect(inputsNamed(res.text, 'request_id')).toEqual([]);
  });

  it('when the redirect_uri is not the registered one, then the page shows both URIs, which variable to fix, and a link back to the app', async () => {
    const asked = 'http://localhost:4100/auth/callback?<b>';
    const res = await openDialog(app, { redirect_uri: asked }).expect(400);
    expect(textOf(res.text)).toContain('URL blocked');
    const uris = findAll(res.text, 'code').map((code) => [textOf(code), attr(code, 'translate')]);
    expect(uris).toEqual(
      expect.arrayContaining([
        [CLIENT.redirectUri, 'no'],
        [asked, 'no'],
      ]),
    );
    expect(textOf(res.text)).toMatch(/BASE_URL/);
    expect(findAll(res.text, 'a').map((a) => attr(a, 'href'))).toContain('http://app.test/');
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
    expect(attr(find(page.text, 'form')!, 'action')).toBe('/dialog/oauth/decision');
  });
});
