/**
 * The User node's public_profile fields and the items of `/me/accounts`, as
 * the Graph API reference lists them (docs/specification.md#me,
 * docs/specification.md#managed-pages).
 */
import request from 'supertest';
import { graphGet, makeEmulator, PAGES, USERS } from './helpers';

const tokenWith = (scopes: string[]): { app: import('express').Express; token: string } => {
  const { app, controls } = makeEmulator();
  return { app, token: controls.issueToken({ userId: USERS.ada, scopes }).access_token };
};

describe('GET /me fields', () => {
  it('when the public_profile fields and link (with user_link) are asked for, then short_name, middle_name, name_format and an app-scoped link come back', async () => {
    const { app, token } = tokenWith(['pages_show_list', 'user_link']);
    const res = await graphGet(app, '/v23.0/me', token)
      .query({ fields: 'id,name,first_name,middle_name,last_name,short_name,name_format,link' })
      .expect(200);
    expect(res.body).toEqual({
      id: USERS.ada,
      name: 'Ada Lovelace',
      first_name: 'Ada',
      middle_name: 'King',
      last_name: 'Lovelace',
      short_name: 'Ada',
      name_format: '{first} {last}',
      link: expect.stringMatching(/^https:\/\/www\.facebook\.com\/app_scoped_user_id\//) as unknown,
    });
  });

  it('when picture is asked for, then {data: {url, width, height, is_silhouette}} with a signed URL the CDN serves', async () => {
    const { app, token } = tokenWith([]);
    const res = await graphGet(app, '/v23.0/me', token).query({ fields: 'picture' }).expect(200);
    const data = (res.body as { picture: { data: Record<string, unknown> } }).picture.data;
    expect(data).toEqual({
      height: 50,
      width: 50,
      is_silhouette: true,
      url: expect.stringMatching(/\/media\/silhouette_50x50\.svg\?oh=[^&]+&oe=[0-9A-F]+$/) as unknown,
    });
    const image = new URL(String(data.url));
    await request(app).get(`${image.pathname}${image.search}`).expect(200);
  });

  it('when picture.type(large) is asked for, then the 200-pixel picture', async () => {
    const { app, token } = tokenWith([]);
    const res = await graphGet(app, '/v23.0/me', token).query({ fields: 'picture.type(large)' }).expect(200);
    expect(res.body.picture.data).toMatchObject({ width: 200, height: 200 });
  });

  it('when email and link are asked for without the email and user_link permissions, then they are silently absent; with email, present', async () => {
    const without = tokenWith(['pages_show_list']);
    const res = await graphGet(without.app, '/v23.0/me', without.token).query({ fields: 'id,email,link' }).expect(200);
    expect(res.body).toEqual({ id: USERS.ada });
    const withEmail = tokenWith(['email']);
    const ok = await graphGet(withEmail.app, '/v23.0/me', withEmail.token).query({ fields: 'email' }).expect(200);
    expect(ok.body).toEqual({ id: USERS.ada, email: 'ada@example.com' });
  });

  it('when a field the User node does not have is asked for, then 100 "nonexisting field"', async () => {
    const { app, token } = tokenWith([]);
    const res = await graphGet(app, '/v23.0/me', token).query({ fields: 'favourite_cake' }).expect(400);
    expect(res.body.error).toMatchObject({
      code: 100,
      message: expect.stringContaining('(favourite_cake)') as unknown,
    });
  });
});

describe('GET /me/accounts items', () => {
  it('when the defaults are read, then each item has category_list [{id, name}] and its tasks', async () => {
    const { app, controls } = makeEmulator();
    const token = controls.issueToken({ userId: USERS.grace, scopes: ['pages_show_list'] }).access_token;
    const res = await graphGet(app, '/v23.0/me/accounts', token).expect(200);
    const items = (res.body as { data: Record<string, unknown>[] }).data;
    expect(items.map((i) => i.id)).toEqual([PAGES.cafe, PAGES.bakery]);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['access_token', 'category', 'category_list', 'id', 'name', 'tasks']);
      expect(item.category_list).toEqual([{ id: expect.stringMatching(/^\d+$/) as unknown, name: item.category }]);
    }
    expect(items[0]?.tasks).toEqual(['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE']);
    // A narrower role on a shared Page: no MANAGE.
    expect(items[1]?.tasks).toEqual(['ANALYZE', 'CREATE_CONTENT', 'MODERATE']);
  });

  it('when category_list is asked for with a nested selection, then only those keys', async () => {
    const { app, controls } = makeEmulator();
    const token = controls.issueToken({ userId: USERS.ada, scopes: ['pages_show_list'] }).access_token;
    const res = await graphGet(app, '/v23.0/me/accounts', token).query({ fields: 'category_list{name}' }).expect(200);
    expect(res.body.data[0]).toEqual({ id: PAGES.bakery, category_list: [{ name: 'Bakery' }] });
  });
});
