import { graphError, graphGet, makeEmulator, PAGES, pageToken, userToken } from './helpers';

interface Post {
  id: string;
  created_time: string;
  message?: string;
  story?: string;
}
interface FeedPage {
  data: Post[];
  paging?: { cursors?: { before: string; after: string }; next?: string; previous?: string };
}

describe('GET /<page_id>/feed', () => {
  const { app } = makeEmulator({ publicUrl: 'http://graph.example.test' });
  let token: string;
  beforeAll(async () => {
    token = await pageToken(app, await userToken(app), PAGES.bakery);
  });
  const feed = (query: Record<string, string> = {}, path = `/${PAGES.bakery}/feed`) =>
    graphGet(app, path, token).query(query);

  it('when no limit is given, then 25 posts newest first, opaque cursors of a few hundred characters, next, and previous as the real first page has', async () => {
    const res = await feed().expect(200);
    const body = res.body as FeedPage;
    expect(body.data).toHaveLength(25);
    expect(body.data[0]).toEqual({
      id: expect.stringMatching(new RegExp(`^${PAGES.bakery}_\\d+$`)),
      created_time: '2026-10-01T12:00:00+0000',
      message: expect.any(String),
    });
    const times = body.data.map((p) => p.created_time);
    expect([...times].sort().reverse()).toEqual(times);
    expect(body.paging?.cursors?.before).toMatch(/^[A-Za-z0-9_-]{300,600}$/);
    expect(body.paging?.next).toBeDefined();
    expect(body.paging?.previous).toBeDefined();
    // Its before cursor leads to nothing newer.
    const newer = (await feed({ before: body.paging!.cursors!.before }).expect(200)).body as FeedPage;
    expect(newer).toEqual({ data: [] });
  });

  it('when the page at post 50 is asked for, then it comes back empty once, with next and no cursors, and next gives the posts', async () => {
    const first = (await feed({ limit: '50' }).expect(200)).body as FeedPage;
    const gap = (await feed({ after: first.paging!.cursors!.after }).expect(200)).body as FeedPage;
    expect(gap.data).toEqual([]);
    expect(Object.keys(gap.paging!)).toEqual(['next']);
    const next = new URL(gap.paging!.next!);
    expect(next.origin).toBe('http://graph.example.test');
    expect(next.searchParams.get('access_token')).toBe(token);
    const real = (await feed({ after: next.searchParams.get('after')! }).expect(200)).body as FeedPage;
    expect(real.data.length).toBeGreaterThan(0);
    expect(real.data[0]!.id).not.toBe(first.data[49]!.id);
  });

  describe('with empty pages set at the first page and posts 5 and 10 (setEmptyFeedPages)', () => {
    const { app: a, controls } = makeEmulator({ emptyFeedPages: [5] });
    let t: string;
    beforeAll(async () => {
      t = await pageToken(a, await userToken(a), PAGES.bakery);
    });
    const walk = async () => {
      const pages: FeedPage[] = [];
      let after: string | null = null;
      do {
        const res = await graphGet(a, `/${PAGES.bakery}/feed`, t).query({ limit: '5', ...(after ? { after } : {}) });
        const body = res.body as FeedPage;
        pages.push(body);
        after = body.paging?.next === undefined ? null : new URL(body.paging.next).searchParams.get('after');
      } while (after !== null && pages.length < 40);
      return pages;
    };

    it('when walked by the after of next, then exactly those pages are empty, each once, and every post comes once', async () => {
      controls.setEmptyFeedPages([10, 5, 0]);
      const pages = await walk();
      const empty = pages.flatMap((p, i) => (p.data.length === 0 ? [i] : []));
      expect(empty).toEqual([0, 2, 4]);
      for (const i of empty) expect(pages[i]!.paging!.cursors).toBeUndefined();
      const ids = pages.flatMap((p) => p.data.map((post) => post.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeGreaterThanOrEqual(62);
      // The end is {"data":[…]} without next: never an empty page with next.
      expect(pages.at(-1)!.paging?.next).toBeUndefined();
    });

    it('when reset, then the option’s positions come back; none, then no page is empty', async () => {
      controls.setEmptyFeedPages([]);
      expect((await walk()).some((p) => p.data.length === 0)).toBe(false);
      controls.reset();
      expect((await walk()).findIndex((p) => p.data.length === 0)).toBe(1);
    });

    it.each([[[1.5]], [[-3]], [Array.from({ length: 101 }, (_, i) => i + 1)]])(
      'when the positions are %j, then the control refuses them and changes nothing',
      (positions) => {
        controls.setEmptyFeedPages([7]);
        expect(() => controls.setEmptyFeedPages(positions)).toThrow(/setEmptyFeedPages: positions must be/);
        expect(() => makeEmulator({ emptyFeedPages: positions })).toThrow(/createEmulator: emptyFeedPages must be/);
      },
    );
  });

  it('when a cursor is edited, then code 100', async () => {
    const first = (await feed().expect(200)).body as FeedPage;
    const edited = `${first.paging!.cursors!.after.slice(0, -2)}AA`;
    await feed({ after: edited }).expect(400);
  });

  it('when following next by its after cursor, then every one of the ≥62 posts is seen exactly once and the last page has no next', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await feed({ limit: '10', ...(after !== undefined ? { after } : {}) }).expect(200);
      const body = res.body as FeedPage;
      seen.push(...body.data.map((p) => p.id));
      if (body.data.length > 0) pages++;
      if (pages > 1 && body.data.length > 0) expect(body.paging?.previous).toBeDefined();
      if (body.paging?.next === undefined) break;
      // By next's after: an empty page with next has no cursors.
      after = new URL(body.paging.next).searchParams.get('after')!;
    }
    expect(seen.length).toBeGreaterThanOrEqual(62);
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBe(Math.ceil(seen.length / 10));
  });

  it('when the before cursor of page 2 is used, then page 1 comes back', async () => {
    const first = (await feed({ limit: '5' }).expect(200)).body as FeedPage;
    const second = (await feed({ limit: '5', after: first.paging!.cursors!.after }).expect(200)).body as FeedPage;
    const back = (await feed({ limit: '5', before: second.paging!.cursors!.before }).expect(200)).body as FeedPage;
    expect(back.data).toEqual(first.data);
  });

  it('when next/previous links are given, then they are absolute URLs on the emulator origin carrying access_token, like the real API', async () => {
    const res = await feed({ limit: '3' }, `/v23.0/${PAGES.bakery}/feed`).expect(200);
    const next = new URL((res.body as FeedPage).paging!.next!);
    expect(next.origin).toBe('http://graph.example.test');
    expect(next.pathname).toBe(`/v23.0/${PAGES.bakery}/feed`);
    expect(next.searchParams.get('access_token')).toBe(token);
    expect(next.searchParams.get('limit')).toBe('3');
    expect(next.searchParams.get('after')).toBe((res.body as FeedPage).paging!.cursors!.after);
  });

  it('when limit is over 100, then it is capped at 100 (the documented maximum)', async () => {
    const res = await feed({ limit: '500' }).expect(200);
    expect((res.body as FeedPage).data.length).toBeLessThanOrEqual(100);
    expect((res.body as FeedPage).data.length).toBeGreaterThanOrEqual(62);
    expect((res.body as FeedPage).paging?.next).toBeUndefined();
  });

  it.each(['0', '-1', 'abc', '1.5'])('when limit is %s, then 100', async (limit) => {
    const res = await feed({ limit }).expect(400);
    expect(graphError(res.body).code).toBe(100);
  });

  it.each([
    ['garbage', 'not a cursor!'],
    ['valid base64 of something else', Buffer.from('hello').toString('base64url')],
    ['a cursor of another page', Buffer.from(`${PAGES.cafe}.feed:${PAGES.cafe}_1`).toString('base64url')],
  ])('when the after cursor is %s, then 100', async (_n, after) => {
    const res = await feed({ after }).expect(400);
    expect(graphError(res.body).code).toBe(100);
  });

  it('when fields are chosen, then only those (and id) come back, unset ones omitted; an unknown one is 100', async () => {
    const res = await feed({ fields: 'story', limit: '3' }).expect(200);
    for (const post of (res.body as FeedPage).data)
      expect(Object.keys(post).filter((k) => k !== 'id' && k !== 'story')).toEqual([]);
    expect(((await feed({ fields: 'likes' }).expect(400)).body as { error: { message: string } }).error.message).toBe(
      '(#100) Tried accessing nonexisting field (likes) on node type (Post)',
    );
  });

  it('when the whole feed is read, then it holds story-only posts, multi-line, emoji, RTL, HTML-looking and very long messages', async () => {
    const posts = ((await feed({ limit: '100' }).expect(200)).body as FeedPage).data;
    expect(posts.some((p) => p.story !== undefined && p.message === undefined)).toBe(true);
    expect(posts.some((p) => p.message?.includes('\n'))).toBe(true);
    expect(posts.some((p) => /\p{Extended_Pictographic}/u.test(p.message ?? ''))).toBe(true);
    expect(posts.some((p) => /[\u0590-\u06FF]/.test(p.message ?? ''))).toBe(true);
    const hostile = ['<script>window.__pwned=1</script>', '<img src=x onerror="window.__pwned=1">'];
    for (const words of hostile) expect(posts.some((p) => p.message?.includes(words))).toBe(true);
    expect(posts.some((p) => (p.message?.length ?? 0) > 3000)).toBe(true);
  });

  it('when the page has an empty feed, then {"data":[]}', async () => {
    const { app: a } = makeEmulator();
    const sparse = await pageToken(a, await userToken(a), PAGES.sparse);
    const res = await graphGet(a, `/${PAGES.sparse}/feed`, sparse).expect(200);
    expect(res.body).toEqual({ data: [] });
  });

  it('when the edge is /posts, then it lists the same posts', async () => {
    const posts = (await feed({ limit: '2' }, `/${PAGES.bakery}/posts`).expect(200)).body as FeedPage;
    const fed = (await feed({ limit: '2' }).expect(200)).body as FeedPage;
    expect(posts.data).toEqual(fed.data);
  });

  it('when a user token reads the feed, then 210', async () => {
    const { app: a } = makeEmulator();
    const user = await userToken(a);
    const res = await graphGet(a, `/${PAGES.bakery}/feed`, user).expect(400);
    expect(graphError(res.body).code).toBe(210);
  });
});
