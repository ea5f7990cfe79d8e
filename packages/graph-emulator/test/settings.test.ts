import request from 'supertest';
import {
  CLIENT,
  graphError,
  graphGet,
  makeEmulator,
  OTHER_CLIENT,
  USERS,
  userToken,
  type TestEmulator,
} from './helpers';
import { startReceiver, type Receiver } from './receiver';
import { attr, find, findAll, inputsNamed, textOf, type Element } from './dom';

type App = TestEmulator['app'];

/** The form of one app on the settings page: its hidden fields. */
function formFor(html: string, clientId: string): Record<string, string> {
  const hidden = (form: Element) => findAll(form, (n) => n.nodeName === 'input' && attr(n, 'type') === 'hidden');
  const form = findAll(html, 'form').find((f) => inputsNamed(f, 'client_id').some((i) => i.value === clientId));
  if (form === undefined) throw new Error(`no form for ${clientId} in: ${html.slice(0, 400)}`);
  return Object.fromEntries(hidden(form).map((input) => [attr(input, 'name')!, attr(input, 'value') ?? '']));
}

/** Whether the page offers to remove the app named `name` (its Remove button). */
const offersRemoving = (html: string, name: string) =>
  findAll(html, 'button').some((b) => textOf(b) === `Remove ${name}`);

describe('the "Apps and Websites" settings page', () => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
    receiver.answer = (req, res) => {
      const json =
        req.url === '/dd' ? { url: 'http://app.test/auth/data-deletion/ABC123', confirmation_code: 'ABC123' } : {};
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    };
  });
  afterEach(() => receiver.close());

  const emulator = (name = CLIENT.name) =>
    makeEmulator({
      clients: [
        { ...CLIENT, name, deauthorizeUrl: `${receiver.url}/d`, dataDeletionUrl: `${receiver.url}/dd` },
        OTHER_CLIENT,
      ],
    });

  /** An emulator where Ada has logged in to the app, with the hidden fields of that app's form on her settings page. */
  async function loggedIn() {
    const emu = emulator();
    const token = await userToken(emu.app);
    const page = await request(emu.app).get('/settings/apps').query({ user: USERS.ada });
    return { ...emu, token, fields: formFor(page.text, CLIENT.clientId) };
  }

  /** Posts the settings page's removal form. */
  const postRemove = (app: App, form: Record<string, string>, headers: Record<string, string> = {}) =>
    request(app).post('/settings/apps/remove').set(headers).type('form').send(form);

  it('when opened without a person, then it lists the seeded people with links to their settings', async () => {
    const { app } = emulator();
    const res = await request(app).get('/settings/apps').expect(200);
    const ada = find(res.text, (n) => n.nodeName === 'a' && textOf(n).includes('Ada Lovelace'));
    expect(ada && attr(ada, 'href')).toBe(`/settings/apps?user=${USERS.ada}`);
  });

  it('when a person has logged in to an app, then the page lists that app with "Remove" and "Remove and request deletion", and no other', async () => {
    const { app } = emulator();
    await userToken(app);
    const res = await request(app).get('/settings/apps').query({ user: USERS.ada }).expect(200);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'none'/);
    expect(res.headers['content-security-policy']).toMatch(/form-action 'self'/);
    expect(findAll(res.text, 'script')).toEqual([]);
    expect(findAll(res.text, (n) => (n.attrs ?? []).some((a) => a.name === 'style' || /^on/.test(a.name)))).toEqual([]);
    expect(offersRemoving(res.text, CLIENT.name)).toBe(true);
    expect(textOf(res.text)).toContain('Remove and request deletion');
    expect(textOf(res.text)).not.toContain(OTHER_CLIENT.name);
    const grace = await request(app).get('/settings/apps').query({ user: USERS.grace }).expect(200);
    expect(offersRemoving(grace.text, CLIENT.name)).toBe(false);
    expect(textOf(grace.text)).toMatch(/no apps/i);
  });

  it('when an app name holds HTML, then the page shows it as text', async () => {
    const name = '<img src=x onerror=alert(1)> & Co';
    const { app } = emulator(name);
    await userToken(app);
    const res = await request(app).get('/settings/apps').query({ user: USERS.ada }).expect(200);
    expect(findAll(res.text, 'img')).toEqual([]);
    expect(textOf(res.text)).toContain(name);
  });

  it.each([
    ['an unknown person', '999', 404],
    ['a malformed id', 'ada<script>', 400],
  ])('when the page is opened for %s (%s), then a %i page', async (_what, user, status) => {
    const { app } = emulator();
    const res = await request(app).get('/settings/apps').query({ user }).expect(status);
    expect(findAll(res.text, 'script')).toEqual([]);
  });

  it('when "Remove" is pressed, then the tokens stop working, the deauthorize callback is sent, and the page says the app was told', async () => {
    const { app, controls, token, fields } = await loggedIn();
    const res = await postRemove(app, { ...fields, action: 'remove' }).expect(200);
    expect(textOf(res.text)).toContain(`${CLIENT.name} removed`);
    expect(res.text).toMatch(/deauthorize callback.*answered 200/s);
    expect(receiver.received.map((r) => r.path)).toEqual(['/d']);
    const me = await graphGet(app, '/me', token).expect(400);
    expect(graphError(me.body)).toMatchObject({ code: 190, error_subcode: 458 });
    expect(controls.callbackDeliveries()).toHaveLength(1);
    // The app is gone from the list.
    const after = await request(app).get('/settings/apps').query({ user: USERS.ada });
    expect(offersRemoving(after.text, CLIENT.name)).toBe(false);
  });

  it('when "Remove and request deletion" is pressed, then the page shows the confirmation code the app gave', async () => {
    const { app, fields } = await loggedIn();
    const res = await postRemove(app, { ...fields, action: 'remove_and_delete' }).expect(200);
    expect(receiver.received.map((r) => r.path)).toEqual(['/d', '/dd']);
    expect(textOf(res.text)).toContain(`${CLIENT.name} confirmed deletion: code ABC123`);
    expect(findAll(res.text, 'code').map(textOf)).toContain('ABC123');
    expect(findAll(res.text, 'a').map((a) => attr(a, 'href'))).toContain('http://app.test/auth/data-deletion/ABC123');
  });

  it('when the app does not answer, then the page says so and that the app will learn on its next call', async () => {
    const { app, fields } = await loggedIn();
    receiver.answer = (_req, res) => {
      res.writeHead(503).end();
    };
    const res = await postRemove(app, { ...fields, action: 'remove_and_delete' }).expect(200);
    expect(res.text).toMatch(/did not confirm/);
    expect(res.text).toMatch(/error 190/);
  });

  describe('CSRF on its form', () => {
    const stillWorks = (app: App, token: string) => graphGet(app, '/me', token).expect(200);

    it('when the form token is missing or altered, then 403 and nothing is revoked or sent', async () => {
      const { app, token, fields } = await loggedIn();
      const { form_token: formToken, ...rest } = fields;
      await postRemove(app, { ...rest, action: 'remove' }).expect(403);
      const altered = `${formToken!.slice(0, -2)}${formToken!.endsWith('A') ? 'BB' : 'AA'}`;
      await postRemove(app, { ...rest, form_token: altered, action: 'remove' }).expect(403);
      await stillWorks(app, token);
      expect(receiver.received).toHaveLength(0);
    });

    it('when the token was made for another person or app, then 403', async () => {
      const { app, token, fields, controls } = await loggedIn();
      controls.issueToken({ userId: USERS.grace });
      await postRemove(app, { ...fields, user_id: USERS.grace, action: 'remove' }).expect(403);
      await stillWorks(app, token);
    });

    it('when the form is older than 30 minutes, then 403', async () => {
      const { app, token, fields, clock } = await loggedIn();
      clock.advance(31 * 60_000);
      await postRemove(app, { ...fields, action: 'remove' }).expect(403);
      await stillWorks(app, token);
    });

    it('when the POST comes from another site, then 403 even with a valid token', async () => {
      const { app, token, fields } = await loggedIn();
      await postRemove(app, { ...fields, action: 'remove' }, { Origin: 'http://evil.test' }).expect(403);
      await postRemove(app, { ...fields, action: 'remove' }, { 'Sec-Fetch-Site': 'cross-site' }).expect(403);
      await stillWorks(app, token);
    });

    it('when the browser sends Origin "null" from this page (it sets no-referrer) and Sec-Fetch-Site same-origin, then the removal goes through', async () => {
      const { app, fields } = await loggedIn();
      await postRemove(
        app,
        { ...fields, action: 'remove' },
        { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' },
      ).expect(200);
    });
  });

  it('when the app is no longer authorised by that person, then a 404 page; an unknown one fails the form check', async () => {
    const { app, fields } = await loggedIn();
    await postRemove(app, { ...fields, client_id: 'nope', action: 'remove' }).expect(403);
    await postRemove(app, { ...fields, action: 'remove' }).expect(200);
    // Removed already: the same form again finds nothing to remove.
    await postRemove(app, { ...fields, action: 'remove' }).expect(404);
  });

  it('when the action or an id is malformed, then a 400 page; other methods get 405', async () => {
    const { app, fields } = await loggedIn();
    await postRemove(app, { ...fields, action: 'explode' }).expect(400);
    await postRemove(app, { ...fields, user_id: 'x', action: 'remove' }).expect(400);
    await request(app).get('/settings/apps/remove').expect(405);
    await request(app).delete('/settings/apps').expect(405);
  });
});
