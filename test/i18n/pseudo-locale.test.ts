import request from 'supertest';
import { SEED_IDS, TEST_SEED } from '@pagelight/graph-emulator';
import { signInAndConnect } from '../support/flow';
import { wordsOutsideCatalogs } from '../support/pseudo';
import { signedRequest } from '../support/signed-request';
import { agentFor, APP_SECRET, useStack } from '../support/stack';
import { attr, find, links } from '../support/dom';
import { sendForm, writeForm } from '../support/write-forms';

const ADA = SEED_IDS.users.ada;
const BAKERY = SEED_IDS.pages.bakery;
const BAKERY_FEED = TEST_SEED.pages.find((p) => p.id === BAKERY)!.feed;
/** Three comments, one with two replies (one by the Page). */
const SOURDOUGH = BAKERY_FEED[0]!.id;
/** The album of five photos. */
const ALBUM = BAKERY_FEED[4]!.id;
/** Thirty comments: more than one page of them. */
const STORY = BAKERY_FEED[5]!.id;
/** A video, and reactions of every kind. */
const VIDEO = BAKERY_FEED[7]!.id;

/**
 * Every screen in the pseudo-locale (docs/architecture.md#languages): a word outside ⟦…⟧ came from no catalog —
 * a literal left in a view or in the code — unless the view isolates it as content that is not ours.
 */
describe('no words outside the catalogs', () => {
  const stack = useStack({ pseudoLocale: true, env: { PAGE_CACHE_TTL: '60' } });
  const pseudo = () => request(stack.app);
  const inPseudo = (path: string) => pseudo().get(path).set('Accept-Language', 'en-XA');

  const expectAllWordsTranslated = (html: string) => {
    const root = find(html, 'html')!;
    expect([attr(root, 'lang'), attr(root, 'dir')]).toEqual(['en-XA', 'ltr']);
    expect(wordsOutsideCatalogs(html)).toEqual([]);
  };

  it('when a view has words of its own, then the check finds them, and not what is isolated or marked', () => {
    expect(
      wordsOutsideCatalogs('<p>⟦Latest posts⟧</p><p>Older posts</p><h1 dir="auto">Bakery</h1><img alt="Photo">'),
    ).toEqual(['img[alt]: Photo', 'Older posts']);
  });

  it.each([
    ['home', '/', 200],
    ['home after logout', '/?logged_out=1', 200],
    ['privacy', '/privacy', 200],
    ['a page that does not exist', '/no-such-page', 404],
    ['a Page id that is no number', '/pages/abc', 400],
    ['a Page while signed out', `/pages/${BAKERY}`, 401],
    ['the picker while signed out', '/pages', 401],
    ['a deletion receipt that does not exist', `/auth/data-deletion/${'0'.repeat(32)}`, 404],
    ['an unknown language', '/language?lang=tlh', 400],
    ['a cancelled login', '/auth/callback?error=access_denied&error_reason=user_denied', 200],
    ['a refused login', '/auth/callback?error=server_error', 400],
    ['a login link that was changed', '/auth/login?rerequest=2', 400],
  ])('when %s is shown signed out, then every word is from a catalog', async (_what, path, status) => {
    expectAllWordsTranslated((await inPseudo(path).expect(status)).text);
  });

  it('when a person signs in and reads a Page, its older posts, the picker and the errors, then every word is from a catalog', async () => {
    const agent = agentFor(stack);
    await agent.get('/language?lang=en-XA').expect(303);
    await signInAndConnect(agent, BAKERY, { user: ADA });
    const screens: [string, number][] = [
      ['/', 200],
      ['/pages', 200],
      [`/pages/${BAKERY}`, 200],
      [`/pages/${BAKERY}/feed/fresh`, 200],
      ['/privacy', 200],
      [`/pages/${BAKERY}/feed?after=x`, 400],
      ['/pages/123456789', 303],
    ];
    for (const [path, status] of screens) {
      const res = await agent.get(path).expect(status);
      if (status === 303) continue;
      // The fresh posts are a fragment of the page, in the page's language.
      if (path.endsWith('/fresh')) expect(wordsOutsideCatalogs(res.text)).toEqual([]);
      else expectAllWordsTranslated(res.text);
    }
    // The flash the redirect above left, shown on the next page.
    expectAllWordsTranslated((await agent.get('/pages').expect(200)).text);
    const older = links((await agent.get(`/pages/${BAKERY}`).expect(200)).text).find((l) =>
      l.href.includes('/feed?after='),
    );
    expect(older).toBeDefined();
    const olderPath = older!.href;
    expectAllWordsTranslated((await agent.get(olderPath).expect(200)).text);

    // Older posts are read upstream every time: the provider's refusals, as pages.
    stack.emulator.controls.failNext(1, {
      status: 400,
      error: { code: 4, message: 'Application request limit reached' },
    });
    expectAllWordsTranslated((await agent.get(olderPath).expect(429)).text);
    stack.emulator.controls.failNext(2, { kind: 'http', status: 503 });
    expectAllWordsTranslated((await agent.get(olderPath).expect(502)).text);
    stack.emulator.controls.failNext(1, { status: 403, error: { code: 200, message: 'Permissions error' } });
    expectAllWordsTranslated((await agent.get(olderPath).expect(403)).text);
  });

  it('when the provider asked for a deletion, then its receipt has every word from a catalog', async () => {
    const res = await pseudo()
      .post('/auth/data-deletion')
      .type('form')
      .send({ signed_request: signedRequest(APP_SECRET, { user_id: ADA }) })
      .expect(200);
    const code = (res.body as { confirmation_code: string }).confirmation_code;
    expectAllWordsTranslated((await inPseudo(`/auth/data-deletion/${code}`).expect(200)).text);
  });

  describe('with insights and comments granted', () => {
    const granted = useStack({
      pseudoLocale: true,
      env: {
        PAGE_CACHE_TTL: '60',
        FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content read_insights',
      },
    });
    afterEach(() => granted.emulator.controls.reset());

    const signedIn = async () => {
      const agent = agentFor(granted);
      await agent.get('/language?lang=en-XA').expect(303);
      await signInAndConnect(agent, BAKERY, { user: ADA });
      return agent;
    };

    it('when a person reads the insights, with every metric and with one refused, then every word is from a catalog', async () => {
      const agent = await signedIn();
      const charts = (await agent.get(`/pages/${BAKERY}/insights`).expect(200)).text;
      expect(find(charts, { tag: 'svg', class: 'chart' })).toBeDefined();
      expectAllWordsTranslated(charts);
      granted.cache.dropPart(BAKERY, 'insights');
      granted.emulator.controls.refuseMetric('page_post_engagements');
      const refused = (await agent.get(`/pages/${BAKERY}/insights`).expect(200)).text;
      expect(find(refused, { class: 'insights-unavailable' })).toBeDefined();
      expectAllWordsTranslated(refused);
    });

    it('when the person’s role lacks insights, then that screen has every word from a catalog', async () => {
      granted.emulator.controls.setRole(ADA, BAKERY, ['MODERATE', 'CREATE_CONTENT']);
      const agent = await signedIn();
      const html = (await agent.get(`/pages/${BAKERY}/insights`).expect(200)).text;
      expect(find(html, { class: 'insights-blocked' })).toBeDefined();
      expectAllWordsTranslated(html);
    });

    it('when a person reads posts with comments, replies open, more comments, an album and a video, then every word is from a catalog', async () => {
      const agent = await signedIn();
      const post = (await agent.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200)).text;
      expect(find(post, { class: 'post-viewers' })).toBeDefined();
      expectAllWordsTranslated(post);
      const replies = links(post).find((l) => /^\/pages\/\d+\/posts\/[\d_]+\?replies=[\d_]+#/.test(l.href));
      expect(replies).toBeDefined();
      const opened = (await agent.get(replies!.href.replace(/#.*/, '')).expect(200)).text;
      expect(find(opened, { class: 'badge' })).toBeDefined();
      expectAllWordsTranslated(opened);
      const story = (await agent.get(`/pages/${BAKERY}/posts/${STORY}`).expect(200)).text;
      const more = links(story).find((l) => l.rel.includes('next'));
      expect(more).toBeDefined();
      expectAllWordsTranslated(story);
      expectAllWordsTranslated((await agent.get(more!.href.replace(/#.*/, '')).expect(200)).text);
      for (const id of [ALBUM, VIDEO])
        expectAllWordsTranslated((await agent.get(`/pages/${BAKERY}/posts/${id}`).expect(200)).text);
    });
  });
  describe('with publishing granted', () => {
    const publishing = useStack({
      pseudoLocale: true,
      env: { FB_SCOPES: 'pages_show_list pages_read_engagement pages_manage_posts' },
    });

    it('when a manager reads the scheduled posts, a post with Edit and Delete, a refused new time and a deleted post, then every word is from a catalog', async () => {
      const { access_token: token } = publishing.emulator.controls.issueToken({ userId: ADA, pageId: BAKERY });
      const at = String(Math.floor((Date.now() + 2 * 86_400_000) / 1000));
      const body = new URLSearchParams({ message: 'Later', published: 'false', scheduled_publish_time: at });
      body.set('access_token', token);
      const made = await fetch(`${publishing.emulator.url}/${publishing.config.apiVersion}/${BAKERY}/feed`, {
        method: 'POST',
        body,
      });
      const { id } = (await made.json()) as { id: string };
      const agent = agentFor(publishing);
      await agent.get('/language?lang=en-XA').expect(303);
      await signInAndConnect(agent, BAKERY, { user: ADA });
      expectAllWordsTranslated((await agent.get(`/pages/${BAKERY}`).expect(200)).text);
      const list = (await agent.get(`/pages/${BAKERY}/scheduled`).expect(200)).text;
      const move = writeForm(list, 'reschedule', id);
      expectAllWordsTranslated(list);
      const refused = await sendForm(agent, { ...move, values: { ...move.values, zone: 'Nowhere/Atlantis' } }).expect(
        422,
      );
      expectAllWordsTranslated(refused.text);
      const post = (await agent.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200)).text;
      expectAllWordsTranslated(post);
      await sendForm(agent, writeForm(post, 'delete-post', SOURDOUGH)).expect(303);
      expectAllWordsTranslated((await agent.get(`/pages/${BAKERY}`).expect(200)).text);
      expectAllWordsTranslated((await agent.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(404)).text);
    });
  });
});
