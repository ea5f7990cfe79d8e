/**
 * The coverage table (docs/coverage.md) is what the emulator serves: the file is what scripts/coverage.ts
 * generates from the code now, and every call it lists answers 200 through the emulator.
 */
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { CALLS, COVERAGE_FILE, coverageMarkdown, parameters, type TokenKind } from '../scripts/coverage';
import { createEmulator, SEED_IDS } from '../src';
import { CLIENT } from './helpers';

/** The first bytes of a 1×1 PNG: what the emulator reads to know a picture (its header and size). */
const ONE_PIXEL_PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR', 'ascii'),
  Buffer.from([0, 0, 0, 1, 0, 0, 0, 1]),
  Buffer.alloc(40, 7),
]);

describe('the coverage table', () => {
  it('when the code changes, then docs/coverage.md is regenerated with it (npx tsx scripts/coverage.ts)', () => {
    expect(readFileSync(COVERAGE_FILE, 'utf8')).toBe(coverageMarkdown());
  });

  it('when a listed call is made with parameters, then the Parameters section names each of them', () => {
    const listed = new Set(parameters().map((p) => p.name));
    const probed = CALLS.flatMap((c) => [...new URLSearchParams(c.probe.split('?')[1] ?? '').keys()]);
    expect(probed.filter((name) => !listed.has(name))).toEqual([]);
  });

  describe('every call it lists', () => {
    const { app, controls } = createEmulator({ clients: [CLIENT], seed: 'test' });
    const scopes = [
      'pages_show_list',
      'pages_read_engagement',
      'pages_read_user_content',
      'read_insights',
      'business_management',
      'pages_manage_metadata',
      'pages_manage_posts',
      'pages_manage_engagement',
    ];
    const user = controls.issueToken({ userId: SEED_IDS.users.ada, scopes }).access_token;
    const page = controls.issueToken({
      userId: SEED_IDS.users.ada,
      scopes,
      pageId: SEED_IDS.pages.bakery,
    }).access_token;
    const tokens: Record<TokenKind, string | undefined> = {
      none: undefined,
      user,
      page,
      app: `${CLIENT.clientId}|${CLIENT.clientSecret}`,
    };
    const business = Object.values(SEED_IDS.businesses)[0]!;

    it.each(CALLS.map((c) => [`${c.method} ${c.path}`, c] as const))(
      'when %s is called, then it answers 200',
      async (_, call) => {
        // A post with a visitor's comment (the rows run in order: the post is deleted last).
        const feed = await request(app)
          .get(`/v25.0/${SEED_IDS.pages.bakery}/feed?fields=comments.limit(25){id,from}&limit=100`)
          .set('authorization', `Bearer ${page}`);
        const posts = feed.body as {
          data: { id: string; comments?: { data: { id: string; from?: { id: string } }[] } }[];
        };
        const post = posts.data.find((p) => p.comments?.data.some((c) => c.from?.id !== SEED_IDS.pages.bakery))!;
        const postId = post.id;
        const commentId = post.comments!.data.find((c) => c.from?.id !== SEED_IDS.pages.bakery)!.id;
        const path = call.probe
          .replace('{post}', postId)
          .replace('{comment}', commentId)
          .replace('{business}', business)
          .replace('{app}', CLIENT.clientId)
          .replace('{user}', encodeURIComponent(user));
        const token = tokens[call.token];
        const req =
          call.method === 'GET'
            ? request(app).get(path)
            : call.method === 'DELETE'
              ? request(app).delete(path)
              : call.path === '/{page-id}/photos'
                ? request(app).post(path).attach('source', ONE_PIXEL_PNG, 'dot.png')
                : request(app).post(path).type('form');
        if (token !== undefined) req.set('authorization', `Bearer ${token}`);
        const body =
          call.path === '/oauth/access_token'
            ? { grant_type: 'client_credentials', client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret }
            : call.path === '/ (batch)'
              ? { batch: JSON.stringify([{ method: 'GET', relative_url: 'me' }]) }
              : undefined;
        const res = body === undefined ? await req : await req.send(body);
        expect({ status: res.status, error: res.body?.error }).toEqual({ status: 200, error: undefined });
      },
    );
  });
});
