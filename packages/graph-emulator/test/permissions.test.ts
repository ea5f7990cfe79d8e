import { graphError, graphGet, makeEmulator, PAGES, pageToken, USERS, userToken } from './helpers';

describe('permissions granted and declined at the dialog', () => {
  it('when the person unchecks pages_read_user_content, then /me/permissions lists it as declined and public_profile as granted', async () => {
    const { app } = makeEmulator();
    const token = await userToken(app, { perms: ['pages_show_list', 'pages_read_engagement'] });
    const res = await graphGet(app, '/me/permissions', token).expect(200);
    expect(res.body).toEqual({
      data: [
        { permission: 'public_profile', status: 'granted' },
        { permission: 'pages_show_list', status: 'granted' },
        { permission: 'pages_read_engagement', status: 'granted' },
        { permission: 'pages_read_user_content', status: 'declined' },
      ],
    });
  });

  it("when pages_read_user_content was not granted, then the Page's own posts and fields still read (pages_read_engagement is enough)", async () => {
    const { app } = makeEmulator();
    const user = await userToken(app, { perms: ['pages_show_list', 'pages_read_engagement'] });
    const page = await pageToken(app, user, PAGES.bakery);
    const feed = await graphGet(app, `/${PAGES.bakery}/feed`, page).expect(200);
    expect((feed.body as { data: unknown[] }).data.length).toBeGreaterThan(0);
    await graphGet(app, `/${PAGES.bakery}`, page).query({ fields: 'about' }).expect(200);
  });

  it('when pages_read_engagement was declined, then page fields answer code 10 naming it', async () => {
    const { app } = makeEmulator();
    const user = await userToken(app, { perms: ['pages_show_list', 'pages_read_user_content'] });
    const page = await pageToken(app, user, PAGES.bakery);
    const res = await graphGet(app, `/${PAGES.bakery}`, page).query({ fields: 'about' }).expect(403);
    expect(graphError(res.body)).toMatchObject({
      code: 10,
      message: expect.stringContaining("'pages_read_engagement'"),
    });
  });

  it('when pages_show_list was declined, then /me/accounts and the page token request answer 200-family permission errors (403)', async () => {
    const { app } = makeEmulator();
    const user = await userToken(app, { perms: ['pages_read_engagement', 'pages_read_user_content'] });
    const accounts = await graphGet(app, '/me/accounts', user).expect(403);
    expect(graphError(accounts.body)).toMatchObject({
      code: 200,
      message: expect.stringContaining("'pages_show_list'"),
    });
    await graphGet(app, `/${PAGES.bakery}`, user).query({ fields: 'access_token' }).expect(403);
  });
});

describe('GET /me/accounts', () => {
  it('when Ada lists her pages, then both with id, name, category, category_list, a page token and the full task list, and cursors', async () => {
    const { app } = makeEmulator();
    const res = await graphGet(app, '/me/accounts', await userToken(app)).expect(200);
    expect(res.body.data).toEqual([
      {
        id: PAGES.bakery,
        name: 'Lovelace Analytical Bakery',
        category: 'Bakery',
        category_list: [{ id: expect.stringMatching(/^\d{15}$/), name: 'Bakery' }],
        access_token: expect.stringMatching(/^EAA/),
        tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
      },
      {
        id: PAGES.sparse,
        name: 'Difference Engine Repairs',
        category: 'Repair Shop',
        category_list: [{ id: expect.stringMatching(/^\d{15}$/), name: 'Repair Shop' }],
        access_token: expect.any(String),
        tasks: expect.any(Array),
      },
    ]);
    expect(res.body.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });
  });

  it('when the page token from /me/accounts is used, then it reads that page', async () => {
    const { app } = makeEmulator();
    const res = await graphGet(app, '/me/accounts', await userToken(app, { user: USERS.grace })).expect(200);
    const cafe = (res.body.data as { id: string; access_token: string; tasks: string[] }[]).find(
      (p) => p.id === PAGES.cafe,
    )!;
    const shared = (res.body.data as { id: string; tasks: string[] }[]).find((p) => p.id === PAGES.bakery)!;
    expect(shared.tasks).not.toContain('MANAGE');
    await graphGet(app, `/${PAGES.cafe}/feed`, cafe.access_token).expect(200);
  });

  it('when the user manages no page, then {"data":[]}', async () => {
    const { app } = makeEmulator();
    const res = await graphGet(app, '/me/accounts', await userToken(app, { user: USERS.alan })).expect(200);
    expect(res.body).toEqual({ data: [] });
  });

  it('when limit=1 is used, then the pages are paged with cursors', async () => {
    const { app } = makeEmulator();
    const token = await userToken(app);
    const first = await graphGet(app, '/me/accounts', token).query({ limit: '1' }).expect(200);
    expect(first.body.data).toHaveLength(1);
    const second = await graphGet(app, '/me/accounts', token)
      .query({ limit: '1', after: first.body.paging.cursors.after })
      .expect(200);
    expect(second.body.data[0].id).toBe(PAGES.sparse);
    expect(second.body.paging.next).toBeUndefined();
  });

  it('when a page token asks for /me/accounts, then 100 nonexisting field on node type Page', async () => {
    const { app } = makeEmulator();
    const page = await pageToken(app, await userToken(app), PAGES.bakery);
    const res = await graphGet(app, '/me/accounts', page).expect(400);
    expect(graphError(res.body).message).toBe(
      '(#100) Tried accessing nonexisting field (accounts) on node type (Page)',
    );
  });

  it('when /me asks for email without the email permission, then the field is left out', async () => {
    const { app } = makeEmulator();
    const res = await graphGet(app, '/me', await userToken(app))
      .query({ fields: 'id,name,email' })
      .expect(200);
    expect(res.body).toEqual({ id: USERS.ada, name: 'Ada Lovelace' });
  });
});

describe('permission errors in the provider’s words for the person', () => {
  it('when pages_show_list was declined, then the 200 error carries error_user_title and error_user_msg', async () => {
    const { app } = makeEmulator();
    const token = await userToken(app, { perms: ['pages_read_engagement'] });
    const res = await graphGet(app, '/v23.0/me/accounts', token).expect(403);
    const error = (res.body as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ code: 200, error_user_title: 'Permission needed' });
    expect(error.error_user_msg).toContain('list of Pages');
  });
});
