/**
 * Business portfolios (docs/reference.md#business-portfolios): `/me/businesses`, each portfolio's
 * `owned_pages` and `client_pages`, and the page token of a Page reached through one — with and without
 * `business_management`.
 */
import type { Express } from 'express';
import { SEED_IDS } from '../src';
import { DEFAULT_SCOPE, graphError, graphGet, makeEmulator, openDialog, PAGES, USERS, userToken } from './helpers';
import { inputsNamed } from './dom';

const WITH_BUSINESS = `${DEFAULT_SCOPE} business_management`;
const WORKS = SEED_IDS.businesses.somervilleWorks;

type Listed = { data: Record<string, unknown>[]; paging?: { next?: string; cursors: { after: string } } };

async function read(app: Express, path: string, token: string, query: Record<string, string> = {}) {
  return (await graphGet(app, `/v23.0${path}`, token).query(query).expect(200)).body as Listed;
}

describe.each(['test', 'demo'] as const)('business portfolios in the %s seed', (seed) => {
  it('when business_management was granted, then /me/businesses lists the portfolio and its edges list Pages /me/accounts leaves out', async () => {
    const { app } = makeEmulator({ seed });
    const token = await userToken(app, { user: USERS.somerville }, { scope: WITH_BUSINESS });
    expect((await read(app, '/me/accounts', token)).data).toEqual([]);
    expect((await read(app, '/me/businesses', token)).data).toEqual([{ id: WORKS, name: 'Somerville Works' }]);
    const owned = await read(app, `/${WORKS}/owned_pages`, token, { fields: 'id,name,category' });
    expect(owned.data.map((p) => p.id)).toEqual([PAGES.portfolioShop, PAGES.bakery]);
    expect(owned.data[0]).toEqual({
      id: PAGES.portfolioShop,
      name: 'Somerville Instrument Shop',
      category: 'Shopping & Retail',
    });
    const client = await read(app, `/${WORKS}/client_pages`, token, { fields: 'id,name' });
    expect(client.data).toEqual([{ id: PAGES.portfolioStudio, name: 'Somerville Design Studio' }]);
  });
});

describe('business portfolios: with and without business_management', () => {
  it('when business_management was not granted, then /me/businesses and the portfolio edges answer the permission error', async () => {
    const { app } = makeEmulator();
    const token = await userToken(app, { user: USERS.somerville });
    for (const path of ['/me/businesses', `/${WORKS}/owned_pages`, `/${WORKS}/client_pages`]) {
      const res = await graphGet(app, `/v23.0${path}`, token).expect(403);
      expect(graphError(res.body)).toMatchObject({
        code: 200,
        type: 'OAuthException',
        message: '(#200) Requires business_management permission to manage the object',
      });
    }
  });

  it('when the permission is declined at the dialog, then the portfolio stays closed', async () => {
    const { app } = makeEmulator();
    const dialog = await openDialog(app, { scope: WITH_BUSINESS }).expect(200);
    expect(inputsNamed(dialog.text, `perm_${SEED_IDS.users.ada}`).map((p) => p.value)).toContain('business_management');
    expect(dialog.text).toContain('Manage your business');
    const token = await userToken(
      app,
      { user: USERS.somerville, perms: DEFAULT_SCOPE.split(' ') },
      { scope: WITH_BUSINESS },
    );
    await graphGet(app, '/v23.0/me/businesses', token).expect(403);
  });

  it('when granted, then a portfolio Page gives a page token that reads the Page; without it, only the id', async () => {
    const { app } = makeEmulator();
    const granted = await userToken(app, { user: USERS.somerville }, { scope: WITH_BUSINESS });
    const answer = await read(app, `/${PAGES.portfolioStudio}`, granted, { fields: 'access_token' });
    const pageToken = (answer as unknown as { access_token: string }).access_token;
    expect(pageToken).toMatch(/^EAA/);
    const page = await graphGet(app, `/v23.0/${PAGES.portfolioStudio}`, pageToken)
      .query({ fields: 'name' })
      .expect(200);
    expect(page.body).toEqual({ id: PAGES.portfolioStudio, name: 'Somerville Design Studio' });
    await graphGet(app, `/v23.0/${PAGES.portfolioStudio}/feed`, pageToken).expect(200);

    const without = await userToken(app, { user: USERS.somerville });
    expect(await read(app, `/${PAGES.portfolioStudio}`, without, { fields: 'access_token' })).toEqual({
      id: PAGES.portfolioStudio,
    });
  });

  it('when someone outside the portfolio asks for it by id, then it does not exist for them', async () => {
    const { app } = makeEmulator();
    const token = await userToken(app, { user: USERS.grace }, { scope: WITH_BUSINESS });
    expect((await read(app, '/me/businesses', token)).data).toEqual([]);
    const res = await graphGet(app, `/v23.0/${WORKS}/owned_pages`, token).expect(400);
    expect(graphError(res.body)).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it('when a portfolio has more Pages than one call gives, then next leads through them with the token in it', async () => {
    const { app } = makeEmulator({ accountsPageSize: 1 });
    const token = await userToken(app, { user: USERS.somerville }, { scope: WITH_BUSINESS });
    const first = await read(app, `/${WORKS}/owned_pages`, token);
    expect(first.data.map((p) => p.id)).toEqual([PAGES.portfolioShop]);
    expect(first.paging?.next).toContain('access_token=');
    const second = await read(app, `/${WORKS}/owned_pages`, token, { after: first.paging!.cursors.after });
    expect(second.data.map((p) => p.id)).toEqual([PAGES.bakery]);
    expect(second.paging?.next).toBeUndefined();
  });
});
