import { TEST_SEED } from '../src';
import { graphError, graphGet, makeEmulator, PAGES, pageToken, useBakeryTokens, USERS } from './helpers';

const SPEC_FIELDS = 'about,attire,bio,location,parking,hours,emails,website';

describe('GET /<page_id>', () => {
  const { app } = makeEmulator();
  const tokens = useBakeryTokens(app);
  const get = (path: string, token: string, fields?: string) =>
    graphGet(app, path, token).query(fields === undefined ? {} : { fields });

  it('when a user token asks for fields=access_token on a page the user manages, then {access_token, id} with a page token', async () => {
    const res = await get(`/${PAGES.bakery}`, tokens.ada, 'access_token').expect(200);
    expect(res.body).toEqual({ access_token: expect.stringMatching(/^EAA/), id: PAGES.bakery });
    expect(res.body.access_token).not.toBe(tokens.ada);
  });

  it('when asked again with the same user token, then the same page token comes back', async () => {
    const again = await get(`/${PAGES.bakery}`, tokens.ada, 'access_token').expect(200);
    expect(again.body.access_token).toBe(tokens.bakery);
  });

  it('when the user does not manage the page, then only the id comes back (the real API silently omits the token)', async () => {
    const res = await get(`/${PAGES.cafe}`, tokens.ada, 'access_token').expect(200);
    expect(res.body).toEqual({ id: PAGES.cafe });
  });

  it('when a page token asks for the SPEC fields of the main page, then every field has the provider shape', async () => {
    const res = await get(`/${PAGES.bakery}`, tokens.bakery, SPEC_FIELDS).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['id', ...SPEC_FIELDS.split(',')].sort());
    expect(res.body).toMatchObject({
      id: PAGES.bakery,
      attire: 'Casual',
      parking: { lot: 1, street: 1, valet: 0 },
      emails: [expect.any(String), expect.any(String)],
      website: expect.stringMatching(/^https:\/\//),
      location: {
        street: expect.any(String),
        city: 'London',
        country: 'United Kingdom',
        latitude: expect.any(Number),
        longitude: expect.any(Number),
      },
    });
    expect(res.body.bio).toContain('\n');
    expect(res.body.hours).toMatchObject({
      sat_1_open: '08:00',
      sat_1_close: '12:00',
      sat_2_open: '17:00',
      sat_2_close: '21:00',
    });
    expect(Object.keys(res.body.hours).some((k: string) => k.startsWith('sun'))).toBe(false);
  });

  it('when fields are unset on the page, then they are omitted and id is still present', async () => {
    const sparse = await pageToken(app, tokens.ada, PAGES.sparse);
    const res = await get(`/${PAGES.sparse}`, sparse, SPEC_FIELDS).expect(200);
    expect(res.body).toEqual({
      id: PAGES.sparse,
      about: 'We fix gears. Mostly.',
      website: 'javascript:alert(document.domain)',
    });
  });

  it('when no fields are given, then id and name', async () => {
    const res = await get(`/${PAGES.bakery}`, tokens.bakery).expect(200);
    expect(res.body).toEqual({ id: PAGES.bakery, name: 'Lovelace Analytical Bakery' });
  });

  it('when extra fields (name, category, link, fan_count) are asked for, then they come back too', async () => {
    const res = await get(`/${PAGES.bakery}`, tokens.bakery, 'name,category,link,fan_count').expect(200);
    expect(res.body).toEqual({
      id: PAGES.bakery,
      name: 'Lovelace Analytical Bakery',
      category: 'Bakery',
      link: `https://www.facebook.com/${PAGES.bakery}`,
      fan_count: 1843,
    });
  });

  it('when a field does not exist, then 100 "(#100) Tried accessing nonexisting field (foo) on node type (Page)"', async () => {
    const res = await get(`/${PAGES.bakery}`, tokens.bakery, 'about,foo').expect(400);
    expect(graphError(res.body)).toMatchObject({
      code: 100,
      message: '(#100) Tried accessing nonexisting field (foo) on node type (Page)',
    });
  });

  it('when fields use nested selection syntax, then only the nested fields are answered', async () => {
    const res = await get(`/${PAGES.bakery}`, tokens.bakery, 'location{city}').expect(200);
    expect(res.body).toEqual({ id: PAGES.bakery, location: { city: 'London' } });
  });

  it('when a user token asks for page fields, then 210 "A page access token is required to request this resource." (400)', async () => {
    const res = await get(`/${PAGES.bakery}`, tokens.ada, SPEC_FIELDS).expect(400);
    expect(graphError(res.body)).toMatchObject({
      code: 210,
      message: '(#210) A page access token is required to request this resource.',
    });
  });

  it('when a page token is used on another page, then code 10 naming pages_read_engagement (403), as the real API answers', async () => {
    const res = await get(`/${PAGES.sparse}`, tokens.bakery, 'about').expect(403);
    expect(graphError(res.body)).toMatchObject({
      code: 10,
      message: expect.stringContaining("'pages_read_engagement'"),
    });
  });

  it.each([
    ['an unknown numeric id', '999999999999999'],
    ['a non-numeric node', 'not-a-page'],
    ['another user', USERS.grace],
  ])('when the node is %s, then 100/33 GraphMethodException', async (_n, id) => {
    const res = await get(`/${id}`, tokens.ada).expect(400);
    expect(graphError(res.body)).toMatchObject({
      code: 100,
      error_subcode: 33,
      type: 'GraphMethodException',
      message: expect.stringContaining(
        `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions`,
      ),
    });
  });

  it('when a page token calls /me, then it reads the page itself', async () => {
    const res = await get('/me', tokens.bakery).expect(200);
    expect(res.body).toEqual({ id: PAGES.bakery, name: 'Lovelace Analytical Bakery' });
  });

  it('when a path has more than node and edge, then 2500 "Unknown path components"', async () => {
    const res = await get(`/${PAGES.bakery}/feed/extra`, tokens.bakery).expect(400);
    expect(graphError(res.body)).toMatchObject({ code: 2500, message: 'Unknown path components: /feed/extra' });
  });

  it('when an edge does not exist on the page, then 100 nonexisting field', async () => {
    const res = await get(`/${PAGES.bakery}/photos`, tokens.bakery).expect(400);
    expect(graphError(res.body).message).toBe('(#100) Tried accessing nonexisting field (photos) on node type (Page)');
  });

  it('when the seed is read, then the main page has every SPEC field and the data is frozen', () => {
    const main = TEST_SEED.pages.find((p) => p.id === PAGES.bakery);
    for (const f of SPEC_FIELDS.split(',')) expect(main).toHaveProperty(f);
    expect(Object.isFrozen(TEST_SEED.pages)).toBe(true);
  });
});
