import request from 'supertest';
import { TEST_SEED } from '../src';
import { graphError, graphGet, makeEmulator, pageToken, PAGES, userToken } from './helpers';
import { attr, find, findAll, textOf } from './dom';

const HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** The www host's pages the app's "View on Facebook" links reach (docs/reference.md#www-pages). */
describe('the Page and post views on the www host', () => {
  const { app } = makeEmulator();

  it('when a browser opens /{page-id}, then the Page shows with its name and its newest posts, each linked', async () => {
    const res = await request(app).get(`/${PAGES.bakery}`).set('accept', HTML).set('host', 'localhost').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'none'");
    expect(textOf(find(res.text, 'h1')!)).toBe('Lovelace Analytical Bakery');
    const hrefs = findAll(res.text, 'a').map((a) => attr(a, 'href') ?? '');
    expect(
      hrefs.filter((href) => /^\/\d+\/posts\/\d+$/.test(href) && href.startsWith(`/${PAGES.bakery}/`)).length,
    ).toBeGreaterThan(0);
    // Escaped as text: the test seed's hostile messages stay text.
    expect(findAll(res.text, 'script')).toEqual([]);
  });

  it('when a browser opens a post’s permalink, then the post shows, its story included', async () => {
    const post = TEST_SEED.pages.find((p) => p.id === PAGES.bakery)!.feed.find((p) => p.story && p.message)!;
    const number = post.id.split('_')[1];
    const res = await request(app).get(`/${PAGES.bakery}/posts/${number}`).set('accept', HTML).expect(200);
    expect(findAll(res.text, 'strong').map((strong) => textOf(strong))).toContain(post.story);
    await request(app).get(`/${PAGES.bakery}/posts/999999999`).set('accept', HTML).expect(404);
  });

  it('when the settings link of the provider’s own address is opened, then it leads to the settings page', async () => {
    const res = await request(app).get('/settings?tab=applications').set('accept', HTML).expect(302);
    expect(res.headers.location).toBe('/settings/apps');
  });

  it('when /{page-id} comes with a token or without asking for HTML, then it is the Graph API call it always was', async () => {
    const ada = await userToken(app);
    const token = await pageToken(app, ada, PAGES.bakery);
    const api = await graphGet(app, `/${PAGES.bakery}`, token).set('accept', HTML).expect(200);
    expect(api.body).toMatchObject({ id: PAGES.bakery });
    const bare = await request(app).get(`/${PAGES.bakery}`).expect(400);
    expect(graphError(bare.body).code).toBeGreaterThan(0);
  });

  it('when the Host is not a name the emulator is opened by, then 403', async () => {
    await request(app).get(`/${PAGES.bakery}`).set('accept', HTML).set('host', 'attacker.example').expect(403);
  });
});
