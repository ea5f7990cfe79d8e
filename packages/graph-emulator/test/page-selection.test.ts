/**
 * The dialog's page step and the seeded people whose Pages are hard to reach
 * (docs/specification.md#page-selection).
 */
import request from 'supertest';
import {
  type DialogParams,
  dialogQuery,
  exchange,
  graphGet,
  longLivedParams,
  makeEmulator,
  openDialog,
  PAGES,
  requestIdOf,
  USERS,
  userToken,
} from './helpers';
import { attr, findAll, inputsNamed, textOf } from './dom';

async function accounts(app: import('express').Express, token: string, query: Record<string, string> = {}) {
  const res = await graphGet(app, '/v23.0/me/accounts', token)
    .query({ fields: 'id,name', ...query })
    .expect(200);
  return res.body as { data: { id: string; name: string }[]; paging?: { next?: string; cursors: { after: string } } };
}

/** Opens the dialog and submits it as Ada with only `pages` checked. */
async function tokenChoosing(app: import('express').Express, pages: string[], extra: DialogParams = {}) {
  const page = await openDialog(app, extra).expect(200);
  const form = new URLSearchParams({ request_id: requestIdOf(page.text), decision: 'continue', user_id: USERS.ada });
  for (const p of ['pages_show_list', 'pages_read_engagement', 'pages_read_user_content'])
    form.append(`perm_${USERS.ada}`, p);
  for (const id of pages) form.append(`page_${USERS.ada}`, id);
  const res = await request(app).post('/v23.0/dialog/oauth/decision').type('form').send(form.toString()).expect(302);
  const code = new URL(res.headers.location as string).searchParams.get('code') ?? '';
  const token = await exchange(app, code).expect(200);
  return (token.body as { access_token: string }).access_token;
}

/** The Pages the dialog offers `user`, checked. */
const checkedPages = (html: string, user: string) =>
  inputsNamed(html, `page_${user}`)
    .filter((input) => input.type === 'checkbox' && input.checked !== undefined)
    .map((input) => input.value);

describe('the dialog page step', () => {
  it('when a Page permission is asked for, then every person lists their own Pages as checkboxes, all checked', async () => {
    const { app } = makeEmulator();
    const page = await openDialog(app).expect(200);
    expect(checkedPages(page.text, USERS.ada)).toEqual(expect.arrayContaining([PAGES.bakery, PAGES.sparse]));
    expect(checkedPages(page.text, USERS.grace)).toContain(PAGES.cafe);
    expect(textOf(page.text)).toContain('Pages Pagelight test may use as Ada Lovelace');
  });

  it('when no Page permission is asked for, then there is no page step', async () => {
    const { app } = makeEmulator();
    const page = await openDialog(app, { scope: 'email' }).expect(200);
    expect(findAll(page.text, (n) => n.nodeName === 'input' && (attr(n, 'name') ?? '').startsWith('page_'))).toEqual(
      [],
    );
  });

  it('when the person keeps one Page, then /me/accounts lists only it and the other gets no page token', async () => {
    const { app } = makeEmulator();
    const token = await tokenChoosing(app, [PAGES.bakery]);
    expect((await accounts(app, token)).data.map((p) => p.id)).toEqual([PAGES.bakery]);
    const other = await graphGet(app, `/v23.0/${PAGES.sparse}`, token).query({ fields: 'access_token' }).expect(200);
    expect(other.body).toEqual({ id: PAGES.sparse });
  });

  it('when the person unchecks every Page, then /me/accounts is empty', async () => {
    const { app } = makeEmulator();
    const token = await tokenChoosing(app, []);
    expect((await accounts(app, token)).data).toEqual([]);
  });

  it('when the form names a Page of somebody else, then it is ignored', async () => {
    const { app } = makeEmulator();
    const token = await tokenChoosing(app, [PAGES.cafe, PAGES.sparse]);
    expect((await accounts(app, token)).data.map((p) => p.id)).toEqual([PAGES.sparse]);
  });

  it('when the app asks again (auth_type=rerequest), then the step is shown again and the new choice counts', async () => {
    const { app } = makeEmulator();
    await tokenChoosing(app, [PAGES.bakery]);
    const page = await request(app)
      .get('/v23.0/dialog/oauth')
      .query({ ...dialogQuery(), auth_type: 'rerequest' })
      .expect(200);
    expect(checkedPages(page.text, USERS.ada)).toContain(PAGES.sparse);
    const again = await tokenChoosing(app, [PAGES.bakery, PAGES.sparse], { auth_type: 'rerequest' });
    expect((await accounts(app, again)).data).toHaveLength(2);
  });

  it('when the token shortcut is given `pages`, then it lists only those and refuses a page token outside them', async () => {
    const { app, controls } = makeEmulator();
    expect(() => controls.issueToken({ userId: USERS.ada, pageId: PAGES.sparse, pages: [PAGES.bakery] })).toThrow(
      /not among/,
    );
    const { access_token } = controls.issueToken({ userId: USERS.ada, pages: [PAGES.bakery] });
    const listed = await accounts(app, access_token);
    expect(listed.data.map((p) => p.id)).toEqual([PAGES.bakery]);
  });

  it('when the token is exchanged for a long-lived one, then the choice goes with it', async () => {
    const { app } = makeEmulator();
    const token = await tokenChoosing(app, [PAGES.sparse]);
    const long = await request(app).get('/v23.0/oauth/access_token').query(longLivedParams(token)).expect(200);
    const body = long.body as { access_token: string };
    expect((await accounts(app, body.access_token)).data.map((p) => p.id)).toEqual([PAGES.sparse]);
  });
});

describe('seeded people whose Pages are hard to reach', () => {
  it('when the person manages Pages only through a business portfolio, then the dialog says so and /me/accounts is empty', async () => {
    const { app } = makeEmulator();
    const page = await openDialog(app).expect(200);
    expect(page.text).toContain('Manages 3 Pages through a business portfolio only');
    const token = await userToken(app, { user: USERS.somerville });
    expect(await accounts(app, token)).toEqual({ data: [] });
    const direct = await graphGet(app, `/v23.0/${PAGES.portfolioShop}`, token)
      .query({ fields: 'access_token' })
      .expect(200);
    expect(direct.body).toEqual({ id: PAGES.portfolioShop });
  });

  it('when the person manages 30 Pages, then /me/accounts gives at most 10 a call, even for limit=100, and next leads through all', async () => {
    const { app } = makeEmulator();
    const token = await userToken(app, { user: USERS.fairfax });
    const seen: string[] = [];
    let after: string | undefined;
    let calls = 0;
    do {
      const body = await accounts(app, token, { limit: '100', ...(after ? { after } : {}) });
      calls++;
      expect(body.data.length).toBeLessThanOrEqual(10);
      seen.push(...body.data.map((p) => p.id));
      after = body.paging?.next === undefined ? undefined : body.paging.cursors.after;
    } while (after !== undefined);
    expect(calls).toBe(3);
    expect(new Set(seen).size).toBe(30);
  });

  it('when accountsPageSize is set, then it is the page size', async () => {
    const { app } = makeEmulator({ accountsPageSize: 4 });
    const token = await userToken(app, { user: USERS.fairfax });
    expect((await accounts(app, token)).data).toHaveLength(4);
  });
});
