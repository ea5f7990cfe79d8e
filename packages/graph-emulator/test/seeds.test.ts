import request from 'supertest';
import { createEmulator, DEFAULT_SEED, DEMO_SEED, SEED_IDS, TEST_SEED, type Seed, type SeedPost } from '../src';
import { CLIENT, makeEmulator, PAGES, USERS } from './helpers';

const ORIGIN = 'http://graph.example.test';
const pageOf = (seed: Seed, id: string) => seed.pages.find((p) => p.id === id)!;
const reactionsOf = (post: SeedPost) => Object.values(post.reactions ?? {}).reduce((sum, n) => sum + n, 0);

describe('choosing a seed', () => {
  it('when createEmulator gets no seed, then the demo; "test" and a Seed of your own are taken too', () => {
    expect(DEFAULT_SEED).toBe(DEMO_SEED);
    expect(createEmulator({ clients: [CLIENT] }).controls.seedName()).toBe('demo');
    expect(createEmulator({ clients: [CLIENT], seed: 'test' }).controls.seedName()).toBe('test');
    const own: Seed = { users: [], pages: [] };
    expect(createEmulator({ clients: [CLIENT], seed: own }).controls.seedName()).toBe('custom');
  });

  it.each([['prod'], [''], [42], [{ users: [] }], [null]])(
    'when createEmulator gets seed %j, then it throws naming the option',
    (seed) => {
      expect(() => createEmulator({ clients: [CLIENT], seed: seed as never })).toThrow(
        /^createEmulator: seed must be "demo", "test" or a Seed/,
      );
    },
  );

  it('when loadSeed switches, then the data follows, reset() returns to the loaded seed, and a bad name throws', async () => {
    const { app, controls } = makeEmulator({ publicUrl: ORIGIN });
    const token = controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    const name = async () =>
      (
        (await request(app).get(`/${PAGES.bakery}`).query({ fields: 'about', access_token: token })).body as {
          about: string;
        }
      ).about;
    expect(await name()).toBe(pageOf(TEST_SEED, PAGES.bakery).about);
    controls.loadSeed('demo');
    expect(controls.seedName()).toBe('demo');
    expect(await name()).toBe(pageOf(DEMO_SEED, PAGES.bakery).about);
    controls.setPageField(PAGES.bakery, 'about', 'Changed');
    controls.reset();
    expect(await name()).toBe(pageOf(DEMO_SEED, PAGES.bakery).about);
    expect(() => controls.loadSeed('prod' as never)).toThrow(/^loadSeed: name: must be one of "demo", "test"$/);
    expect(controls.seedName()).toBe('demo');
  });
});

describe('the demo seed has what the screens need', () => {
  const bakery = pageOf(DEMO_SEED, SEED_IDS.pages.bakery);

  it('when the bakery is read, then every field a Page manager fills in, and a feed longer than one page', () => {
    expect(bakery).toMatchObject({
      name: expect.any(String),
      followers_count: 12408,
      link: `https://www.facebook.com/${SEED_IDS.pages.bakery}`,
      picture: 'bakery-logo',
      cover: { source: expect.stringMatching(/^\/media\//) },
      website: expect.stringMatching(/^https:\/\//),
      emails: expect.arrayContaining([expect.stringContaining('@')]),
      hours: expect.objectContaining({ mon_1_open: '07:00' }),
      location: expect.objectContaining({ city: 'London' }),
    });
    expect(bakery.feed.length).toBeGreaterThan(25);
  });

  it('when the posts are read, then photos, an album of 4+ photos, a link share, a long post, URLs in text, stories and big counts', () => {
    const feed = bakery.feed;
    expect(feed.filter((p) => p.attachments?.[0]?.type === 'photo').length).toBeGreaterThanOrEqual(5);
    const album = feed.find((p) => p.attachments?.[0]?.type === 'album')!;
    expect(album.attachments![0]!.subattachments!.length).toBeGreaterThanOrEqual(4);
    const share = feed.find((p) => p.attachments?.[0]?.type === 'share')!.attachments![0]!;
    expect(share).toMatchObject({ title: expect.any(String), description: expect.any(String) });
    expect(new URL(share.url!).hostname).toMatch(/\.example$/);
    expect(share.target!.url).toBe(share.url);
    expect(Math.max(...feed.map((p) => p.message?.length ?? 0))).toBeGreaterThan(1000);
    expect(feed.some((p) => /https:\/\/\S+\.example\/\S*/.test(p.message ?? ''))).toBe(true);
    expect(feed.some((p) => p.story !== undefined && p.message === undefined)).toBe(true);
    expect(reactionsOf(feed[0]!)).toBe(1204);
    expect(feed.some((p) => (p.comments?.length ?? 0) > 50)).toBe(true);
    expect(feed.some((p) => (p.shares?.count ?? 0) > 50)).toBe(true);
  });

  it('when the times are read, then fixed, newest first, spread over weeks', () => {
    const times = bakery.feed.map((p) => Date.parse(p.created_time.replace('+0000', 'Z')));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times[0]! - times.at(-1)!).toBeGreaterThan(4 * 7 * 86_400_000);
    expect(bakery.feed[0]!.created_time).toBe('2026-11-20T16:45:00+0000');
  });

  it('when the other Pages are read, then one with fields missing and posts, one with no posts, a café', () => {
    const repairs = pageOf(DEMO_SEED, SEED_IDS.pages.sparse);
    for (const field of ['hours', 'emails', 'cover', 'picture', 'followers_count', 'link', 'location'] as const) {
      expect(repairs[field]).toBeUndefined();
    }
    expect(repairs.feed.length).toBeGreaterThan(0);
    expect(pageOf(DEMO_SEED, SEED_IDS.pages.stall).feed).toEqual([]);
    expect(pageOf(DEMO_SEED, SEED_IDS.pages.cafe).feed.length).toBeGreaterThan(3);
    const ada = DEMO_SEED.users.find((u) => u.id === USERS.ada)!;
    expect(ada.roles.map((r) => r.pageId)).toEqual([
      SEED_IDS.pages.bakery,
      SEED_IDS.pages.sparse,
      SEED_IDS.pages.stall,
    ]);
  });

  it('when any demo text is read, then nothing hostile: no markup, no javascript:, no bidi overrides', () => {
    const texts = DEMO_SEED.pages.flatMap((p) => [
      ...Object.values(p).filter((v): v is string => typeof v === 'string'),
      ...p.feed.flatMap((post) => [
        post.message ?? '',
        post.story ?? '',
        ...(post.comments ?? []).map((c) => c.message),
      ]),
    ]);
    for (const text of texts) expect(text).not.toMatch(/[<>]|javascript:|[\u202a-\u202e\u200b]/i);
  });

  it('when every picture of every demo post and Page is fetched, then each loads', async () => {
    const { app, controls } = makeEmulator({ publicUrl: ORIGIN, seed: 'demo' });
    for (const page of DEMO_SEED.pages.slice(0, 4)) {
      const user = page.id === SEED_IDS.pages.cafe ? USERS.grace : USERS.ada;
      const token = controls.issueToken({ userId: user, pageId: page.id }).access_token;
      const node = await request(app)
        .get(`/${page.id}`)
        .query({ fields: 'picture.type(large),cover', access_token: token })
        .expect(200);
      const feed = await request(app)
        .get(`/${page.id}/feed`)
        .query({ fields: 'full_picture,attachments{media,subattachments{media}}', limit: '100', access_token: token })
        .expect(200);
      const text = JSON.stringify([node.body, feed.body]);
      const urls = [...text.matchAll(/"(http:\/\/graph\.example\.test\/media\/[^"]+)"/g)].map((m) =>
        m[1]!.slice(ORIGIN.length),
      );
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) await request(app).get(url).expect(200);
    }
  });
});

describe('the test seed keeps the hostile content and an expired picture', () => {
  it('when the bakery feed is read, then the payloads the app must render as text', () => {
    const messages = pageOf(TEST_SEED, SEED_IDS.pages.bakery).feed.map((p) => p.message ?? '');
    expect(messages).toEqual(
      expect.arrayContaining([
        '<script>window.__pwned=1</script> Our new menu is live!',
        '<img src=x onerror="window.__pwned=1"> Photo of the week',
        'javascript:alert(1)',
      ]),
    );
    expect(pageOf(TEST_SEED, SEED_IDS.pages.sparse).website).toBe('javascript:alert(document.domain)');
  });

  it('when the expired post’s pictures are fetched, then 403 "URL signature expired"; the post before it loads', async () => {
    const { app, controls } = makeEmulator({ publicUrl: ORIGIN });
    const token = controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    const res = await request(app)
      .get(`/${PAGES.bakery}/feed`)
      .query({ fields: 'full_picture,attachments{media}', limit: '2', access_token: token });
    const [fresh, expired] = (res.body as { data: { full_picture: string; attachments: unknown }[] }).data;
    expect(pageOf(TEST_SEED, PAGES.bakery).feed[1]!.imageExpired).toBe(true);
    await request(app).get(fresh!.full_picture.slice(ORIGIN.length)).expect(200);
    const gone = await request(app).get(expired!.full_picture.slice(ORIGIN.length)).expect(403);
    expect(gone.text).toBe('URL signature expired');
    const src = (expired!.attachments as { data: { media: { image: { src: string } } }[] }).data[0]!.media.image.src;
    await request(app).get(src.slice(ORIGIN.length)).expect(403);
  });
});

describe('the demo seed’s times and texts', () => {
  const HOUR = 3_600_000;
  const newestOf = async (startedAt: number) => {
    const { app, controls } = makeEmulator({ seed: 'demo', now: () => startedAt, publicUrl: ORIGIN });
    const token = controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    const res = await request(app)
      .get(`/${PAGES.bakery}/feed`)
      .query({ fields: 'created_time', limit: '1', access_token: token })
      .expect(200);
    return Date.parse((res.body as { data: { created_time: string }[] }).data[0]!.created_time.replace('+0000', 'Z'));
  };

  it.each([Date.UTC(2027, 2, 14, 9, 0), Date.UTC(2031, 6, 1, 23, 30)])(
    'when the emulator starts at %d, then the newest post is 3 hours old, on any day',
    async (startedAt) => {
      expect(startedAt - (await newestOf(startedAt))).toBe(3 * HOUR);
    },
  );

  it('when the demo is started on any day, then every comment comes after its post and every reply after its comment', async () => {
    const startedAt = Date.UTC(2031, 6, 1, 23, 30);
    const { app, controls } = makeEmulator({ seed: 'demo', now: () => startedAt, publicUrl: ORIGIN });
    const token = controls.issueToken({ userId: USERS.ada, pageId: PAGES.bakery }).access_token;
    const res = await request(app)
      .get(`/${PAGES.bakery}/feed`)
      .query({
        fields: 'created_time,comments.limit(50){created_time,comments.limit(50){created_time}}',
        limit: '100',
        access_token: token,
      })
      .expect(200);
    type Timed = { created_time: string; comments?: { data: Timed[] } };
    const ms = (t: Timed) => Date.parse(t.created_time.replace('+0000', 'Z'));
    const disorder: string[] = [];
    const walk = (parent: Timed) => {
      for (const child of parent.comments?.data ?? []) {
        if (ms(child) < ms(parent) || ms(child) > startedAt)
          disorder.push(`${parent.created_time} → ${child.created_time}`);
        walk(child);
      }
    };
    const posts = (res.body as { data: Timed[] }).data;
    posts.forEach(walk);
    expect(posts.some((p) => (p.comments?.data ?? []).some((c) => (c.comments?.data.length ?? 0) > 0))).toBe(true);
    expect(disorder).toEqual([]);
  });

  it('when the test seed is loaded, then its times are as written (the tests assert on them)', () => {
    expect(TEST_SEED.timesRelativeTo).toBeUndefined();
  });

  it('when every demo post is read, then no text repeats', () => {
    const texts = DEMO_SEED.pages.flatMap((p) => p.feed.map((post) => post.message ?? post.story ?? ''));
    const repeated = texts.filter((t, i) => texts.indexOf(t) !== i);
    expect(repeated).toEqual([]);
  });
});

describe('the demo seed’s visitors’ comments', () => {
  const bakery = pageOf(DEMO_SEED, SEED_IDS.pages.bakery);
  const busiest = [...bakery.feed].sort((a, b) => (b.comments?.length ?? 0) - (a.comments?.length ?? 0))[0]!;
  const texts = (busiest.comments ?? []).map((c) => c.message);

  it('when the busiest post’s first page of comments (25) is read, then no text repeats', () => {
    expect(texts.length).toBeGreaterThanOrEqual(25);
    expect(new Set(texts.slice(0, 25)).size).toBe(25);
  });

  it('when every comment of the busiest post is read, then at least 40 different texts', () => {
    expect(new Set(texts).size).toBeGreaterThanOrEqual(40);
  });
});
