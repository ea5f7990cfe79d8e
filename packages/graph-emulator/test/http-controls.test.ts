import { DEMO_SEED, startEmulator, SEED_IDS, TEST_SEED, type RunningEmulator } from '../src';
import { CLIENT } from './helpers';

/** POSTs a control over HTTP, with a JSON body when one is given. */
const postControl = (origin: string, path: string, body?: unknown) =>
  fetch(`${origin}/__emulator${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('HTTP controls under /__emulator', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ clients: [CLIENT], port: 0, httpControls: true });
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.controls.reset());

  const post = (path: string, body?: unknown) => postControl(emulator.url, path, body);

  it('when started on port 0, then url is a loopback origin without a trailing slash', () => {
    expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emulator.port).toBeGreaterThan(0);
  });

  it('when a token is minted, expired and revoked over HTTP, then Graph answers 200, 190/463, 190/458', async () => {
    const minted = await post('/tokens', { userId: SEED_IDS.users.ada, pageId: SEED_IDS.pages.bakery });
    expect(minted.status).toBe(201);
    const { access_token } = (await minted.json()) as { access_token: string };
    expect((await fetch(`${emulator.url}/me`, bearer(access_token))).status).toBe(200);
    expect(await (await post('/tokens/expire', { pageId: SEED_IDS.pages.bakery })).json()).toEqual({ count: 1 });
    const expired = (await (await fetch(`${emulator.url}/me`, bearer(access_token))).json()) as {
      error: { error_subcode: number };
    };
    expect(expired.error.error_subcode).toBe(463);
    const fresh = (await (await post('/tokens', { userId: SEED_IDS.users.ada })).json()) as { access_token: string };
    expect(await (await post('/tokens/revoke', { token: fresh.access_token, reason: 'app_removed' })).json()).toEqual({
      count: 1,
    });
    const revoked = (await (await fetch(`${emulator.url}/me`, bearer(fresh.access_token))).json()) as {
      error: { error_subcode: number };
    };
    expect(revoked.error.error_subcode).toBe(458);
  });

  it('when latency, a failure and a rate limit are set over HTTP, then Graph calls feel them, and reset clears them', async () => {
    const { access_token } = (await (await post('/tokens', { userId: SEED_IDS.users.ada })).json()) as {
      access_token: string;
    };
    expect((await post('/latency', { ms: 120 })).status).toBe(204);
    const t = Date.now();
    await fetch(`${emulator.url}/me`, bearer(access_token));
    expect(Date.now() - t).toBeGreaterThanOrEqual(110);
    expect(
      (await post('/fail', { n: 1, failure: { kind: 'http', status: 502, body: '<html>down</html>' }, match: '/me' }))
        .status,
    ).toBe(204);
    const failed = await fetch(`${emulator.url}/me`, bearer(access_token));
    expect([failed.status, await failed.text()]).toEqual([502, '<html>down</html>']);
    expect((await post('/rate-limit', { calls: 1, windowMs: 60_000 })).status).toBe(204);
    await fetch(`${emulator.url}/me`, bearer(access_token));
    expect((await fetch(`${emulator.url}/me`, bearer(access_token))).status).toBe(403);
    expect((await post('/reset')).status).toBe(204);
    const t2 = Date.now();
    expect((await fetch(`${emulator.url}/me`, bearer(access_token))).status).toBe(200);
    expect(Date.now() - t2).toBeLessThan(110);
  });

  it('when a failure is scripted over HTTP and not used, then GET /fail lists it and DELETE /fail drops it', async () => {
    expect((await post('/fail', { n: 3, failure: { kind: 'hang' }, match: '/never' })).status).toBe(204);
    const listed = await fetch(`${emulator.url}/__emulator/fail`);
    expect(await listed.json()).toEqual({ data: [{ remaining: 3, failure: { kind: 'hang', match: '/never' } }] });
    const dropped = await fetch(`${emulator.url}/__emulator/fail`, { method: 'DELETE' });
    expect(await dropped.json()).toEqual({ count: 3 });
    expect(await (await fetch(`${emulator.url}/__emulator/fail`)).json()).toEqual({ data: [] });
  });

  it('when empty feed pages are put over HTTP, then the feed comes back empty there with next and no cursors, GET lists them, and a bad list is a 400', async () => {
    const put = (body: unknown) =>
      fetch(`${emulator.url}/__emulator/feed/empty-pages`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await put({ positions: [3] })).status).toBe(204);
    expect(await (await fetch(`${emulator.url}/__emulator/feed/empty-pages`)).json()).toEqual({ positions: [3] });
    const { access_token } = (await (
      await post('/tokens', { userId: SEED_IDS.users.ada, pageId: SEED_IDS.pages.bakery })
    ).json()) as { access_token: string };
    const feed = `${emulator.url}/v26.0/${SEED_IDS.pages.bakery}/feed`;
    const first = (await (await fetch(`${feed}?limit=3`, bearer(access_token))).json()) as {
      paging: { next: string };
    };
    const gap = (await (await fetch(first.paging.next)).json()) as { data: unknown[]; paging: { next: string } };
    expect(gap.data).toEqual([]);
    expect(Object.keys(gap.paging)).toEqual(['next']);
    expect(new URL(gap.paging.next).searchParams.get('access_token')).toBe(access_token);
    const bad = await put({ positions: [-1] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/positions must be/);
    expect((await put({ positions: 'all' })).status).toBe(400);
    expect(await (await fetch(`${emulator.url}/__emulator/feed/empty-pages`)).json()).toEqual({ positions: [3] });
  });

  it('when a page field is set over HTTP, then the page read returns it', async () => {
    expect(
      (await post(`/pages/${SEED_IDS.pages.bakery}`, { about: '<img src=x onerror="window.__pwned=1">' })).status,
    ).toBe(204);
    const { access_token } = (await (
      await post('/tokens', { userId: SEED_IDS.users.ada, pageId: SEED_IDS.pages.bakery })
    ).json()) as { access_token: string };
    const page = (await (
      await fetch(`${emulator.url}/${SEED_IDS.pages.bakery}?fields=about`, bearer(access_token))
    ).json()) as { about: string };
    expect(page.about).toBe('<img src=x onerror="window.__pwned=1">');
  });

  it('when the log is read and deleted over HTTP, then it lists API calls (not control calls) and then is empty', async () => {
    await fetch(`${emulator.url}/me?access_token=nope`);
    const log = (await (await fetch(`${emulator.url}/__emulator/log`)).json()) as {
      data: { path: string; query: Record<string, string> }[];
    };
    expect(log.data).toEqual([expect.objectContaining({ path: '/me', query: { access_token: 'nope' }, status: 400 })]);
    expect(await (await fetch(`${emulator.url}/__emulator/calls?path=/me`)).json()).toEqual({ count: 1 });
    expect((await fetch(`${emulator.url}/__emulator/log`, { method: 'DELETE' })).status).toBe(204);
    expect(((await (await fetch(`${emulator.url}/__emulator/log`)).json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('when the seed summary is read, then ids and counts are listed and no secret', async () => {
    const res = await fetch(`${emulator.url}/__emulator/seed`);
    const text = await res.text();
    expect(text).not.toContain(CLIENT.clientSecret);
    const seed = JSON.parse(text) as { pages: { id: string; posts: number }[] };
    // The demo seed by default: a feed long enough to page through (25 a page).
    expect(seed.pages.find((p) => p.id === SEED_IDS.pages.bakery)?.posts).toBeGreaterThan(25);
  });

  describe('PUT /__emulator/seed', () => {
    const put = (body: unknown, contentType = 'application/json') =>
      fetch(`${emulator.url}/__emulator/seed`, {
        method: 'PUT',
        headers: { 'content-type': contentType },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const summary = async () =>
      (await (await fetch(`${emulator.url}/__emulator/seed`)).json()) as {
        name: string;
        pages: { id: string; name: string; posts: number }[];
      };
    const bakeryPosts = async () => (await summary()).pages.find((p) => p.id === SEED_IDS.pages.bakery)?.posts;
    afterEach(() => emulator.controls.loadSeed('demo'));

    it('when {"name":"test"} is put, then 204 and the data is the test seed, named so in the summary; "demo" switches back', async () => {
      expect((await summary()).name).toBe('demo');
      expect((await put({ name: 'test' })).status).toBe(204);
      expect(await summary()).toMatchObject({ name: 'test' });
      expect(await bakeryPosts()).toBe(TEST_SEED.pages[0]!.feed.length);
      expect((await put({ name: 'demo' })).status).toBe(204);
      expect(await bakeryPosts()).toBe(DEMO_SEED.pages[0]!.feed.length);
    });

    it('when the seed is loaded, then changes made before are gone, as after a reset; tokens stay valid', async () => {
      const { access_token } = emulator.controls.issueToken({ userId: SEED_IDS.users.ada });
      await post(`/pages/${SEED_IDS.pages.bakery}`, { name: 'Renamed' });
      emulator.controls.setLatency(50);
      expect((await put({ name: 'test' })).status).toBe(204);
      expect((await summary()).pages.find((p) => p.id === SEED_IDS.pages.bakery)?.name).toBe(
        'Lovelace Analytical Bakery',
      );
      const me = await fetch(`${emulator.url}/me`, bearer(access_token));
      expect(me.status).toBe(200);
    });

    it.each([
      [{ name: 'prod' }, /^name: must be one of "demo", "test"$/],
      [{ name: 'TEST' }, /^name:/],
      [{}, /^name:/],
      [{ name: 'test', extra: 1 }, /extra/],
      ['"test"', /./],
    ])('when %j is put, then 400 naming the problem and the data unchanged', async (body, message) => {
      const res = await put(body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(message);
      expect((await summary()).name).toBe('demo');
    });

    it('when the body is not JSON, then 415 (a cross-site form cannot switch the seed)', async () => {
      expect((await put('name=test', 'application/x-www-form-urlencoded')).status).toBe(415);
      expect((await summary()).name).toBe('demo');
    });
  });

  it.each([
    ['/latency', { ms: -1 }],
    ['/latency', { ms: 'fast' }],
    ['/fail', { n: 1, failure: { kind: 'explode' } }],
    ['/fail', { n: 0, failure: { kind: 'reset' } }],
    ['/rate-limit', { calls: 0, windowMs: 1 }],
    ['/tokens/expire', { userId: 'ada' }],
    ['/tokens', { userId: '1' }],
    [`/pages/${SEED_IDS.pages.bakery}`, { nonsense: 1 }],
    ['/pages/1', { about: 'x' }],
  ])('when POST %s gets %j, then 400 with a message', async (path, body) => {
    const res = await post(path, body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toEqual(expect.any(String));
  });

  it('when the JSON is malformed or the control unknown, then 400/404 JSON', async () => {
    const bad = await fetch(`${emulator.url}/__emulator/latency`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(bad.status).toBe(400);
    expect((await fetch(`${emulator.url}/__emulator/nope`)).status).toBe(404);
  });
});

describe('HTTP controls of the insights under /__emulator', () => {
  // An emulator of its own: the token minted here would count in the other suite's token filters.
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ clients: [CLIENT], port: 0, httpControls: true });
  });
  afterAll(() => emulator.close());

  const post = (path: string, body?: unknown) => postControl(emulator.url, path, body);

  it('when a role is changed and a metric refused over HTTP, then the insights answer accordingly, and reset undoes both', async () => {
    const { bakery } = SEED_IDS.pages;
    const minted = await post('/tokens', { userId: SEED_IDS.users.ada, pageId: bakery });
    const { access_token } = (await minted.json()) as { access_token: string };
    const insights = (metric: string) =>
      fetch(`${emulator.url}/${bakery}/insights?metric=${metric}`, bearer(access_token));
    expect((await insights('page_media_view')).status).toBe(200);
    expect((await post('/insights/refuse', { metric: 'page_media_view' })).status).toBe(204);
    expect((await insights('page_media_view')).status).toBe(400);
    expect((await post('/roles', { userId: SEED_IDS.users.ada, pageId: bakery, tasks: ['MODERATE'] })).status).toBe(
      204,
    );
    expect((await insights('page_follows')).status).toBe(403);
    expect((await post('/roles', { userId: SEED_IDS.users.ada, pageId: bakery, tasks: ['OWNER'] })).status).toBe(400);
    await post('/reset');
    expect((await insights('page_media_view')).status).toBe(200);
  });
});
