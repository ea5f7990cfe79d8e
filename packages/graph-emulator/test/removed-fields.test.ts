import { loadProviderEnv } from '../src/env';
import { startEmulator, type RunningEmulator } from '../src';
import { CLIENT, graphError, graphGet, makeEmulator, PAGES, pageToken, USERS, userToken } from './helpers';

/** The provider's answer for a Page field it removed out of cycle (docs/reference.md#removed-fields). */
const refused = (field: string) => ({
  message: `(#100) Tried accessing nonexisting field (${field}) on node type (Page)`,
  type: 'OAuthException',
  code: 100,
  fbtrace_id: expect.stringMatching(/^[\w-]+$/),
});

describe('Page fields the provider removed', () => {
  it('when removedFields names hours, then a read asking for hours at any version is 400 with the provider error body', async () => {
    const { app } = makeEmulator({ removedFields: ['hours'] });
    const page = await pageToken(app, await userToken(app), PAGES.bakery);
    for (const path of [`/v26.0/${PAGES.bakery}`, `/v21.0/${PAGES.bakery}`, `/${PAGES.bakery}`]) {
      const res = await graphGet(app, path, page).query({ fields: 'name,hours,about' }).expect(400);
      expect(res.body).toEqual({ error: refused('hours') });
      expect(graphError(res.body)).not.toHaveProperty('error_subcode');
    }
  });

  it('when a read does not ask for the removed field, then it answers as before', async () => {
    const { app } = makeEmulator({ removedFields: ['hours'] });
    const page = await pageToken(app, await userToken(app), PAGES.bakery);
    const res = await graphGet(app, `/v26.0/${PAGES.bakery}`, page).query({ fields: 'name,about' }).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['about', 'id', 'name']);
  });

  it('when two removed fields are asked for, then the answer names the first one asked, as the provider names one field per error', async () => {
    const { app } = makeEmulator({ removedFields: ['hours', 'website'] });
    const page = await pageToken(app, await userToken(app), PAGES.bakery);
    const res = await graphGet(app, `/${PAGES.bakery}`, page).query({ fields: 'website,name,hours' }).expect(400);
    expect(graphError(res.body).message).toBe('(#100) Tried accessing nonexisting field (website) on node type (Page)');
  });

  it('when the control removes website and reset runs, then website is refused, then back', async () => {
    const { app, controls } = makeEmulator();
    const page = await pageToken(app, await userToken(app), PAGES.bakery);
    controls.setRemovedFields(['website']);
    expect(controls.removedFields()).toEqual(['website']);
    const res = await graphGet(app, `/${PAGES.bakery}`, page).query({ fields: 'website' }).expect(400);
    expect(res.body).toEqual({ error: refused('website') });
    controls.reset();
    await graphGet(app, `/${PAGES.bakery}`, page).query({ fields: 'website' }).expect(200);
  });

  it('when the control names a field that is not a Page field or is required, then it refuses loudly', () => {
    const { controls } = makeEmulator();
    expect(() => controls.setRemovedFields(['not_a_field'])).toThrow(/setRemovedFields/);
    expect(() => controls.setRemovedFields(['id'])).toThrow(/setRemovedFields/);
  });

  it('when EMULATOR_REMOVED_FIELDS=hours,website, then the stand-alone emulator is set up with both', () => {
    expect(loadProviderEnv({ EMULATOR_REMOVED_FIELDS: 'hours, website' }).removedFields).toEqual(['hours', 'website']);
    expect(loadProviderEnv({}).removedFields).toEqual([]);
    expect(() => loadProviderEnv({ EMULATOR_REMOVED_FIELDS: 'hours,nope' })).toThrow(/EMULATOR_REMOVED_FIELDS/);
  });
});

describe('removed fields over HTTP (/__emulator/removed-fields)', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ clients: [CLIENT], port: 0, httpControls: true });
  });
  afterAll(() => emulator.close());

  it('when PUT with {fields:["hours"]}, then Graph refuses hours; GET lists it; DELETE restores it', async () => {
    const control = `${emulator.url}/__emulator/removed-fields`;
    const json = { 'content-type': 'application/json' };
    const put = await fetch(control, { method: 'PUT', headers: json, body: JSON.stringify({ fields: ['hours'] }) });
    expect(put.status).toBe(204);
    expect(await (await fetch(control)).json()).toEqual({ fields: ['hours'] });
    const { access_token } = (await (
      await fetch(`${emulator.url}/__emulator/tokens`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ userId: USERS.ada, pageId: PAGES.bakery }),
      })
    ).json()) as { access_token: string };
    const read = () =>
      fetch(`${emulator.url}/v26.0/${PAGES.bakery}?fields=name,hours`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
    const res = await read();
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: refused('hours') });
    expect((await fetch(control, { method: 'DELETE' })).status).toBe(204);
    expect((await read()).status).toBe(200);
  });

  it('when PUT names an unknown field, then 400 naming it', async () => {
    const res = await fetch(`${emulator.url}/__emulator/removed-fields`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fields: ['nope'] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/nope/);
  });
});
