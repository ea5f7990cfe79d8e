import { SEED_IDS } from '@pagelight/graph-emulator';
import { agentFor, useStack } from '../support/stack';
import { findAll, formTo, links, textOf } from '../support/dom';
import { headline, hrefOf, visibleText } from '../support/words';
import { connectedAgent, csrfFrom, postIds, sessionCookie, signedInAgent, signIn, startLogin } from '../support/flow';

const BAKERY = SEED_IDS.pages.bakery;
const SPARSE = SEED_IDS.pages.sparse;

describe('the login-to-feed flow', () => {
  const stack = useStack();

  it('when a person opens the home page, then a Connect page link starts the login', async () => {
    const res = await agentFor(stack).get('/').expect(200);
    expect(hrefOf(res.text, 'Connect page')).toBe('/auth/login');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  // With FB_APP_ID set PKCE is off by default: the real dialog drops a challenge outside its OIDC flow
  // (docs/provider-interface.md#pkce). The challenge and nonce are asserted in test/auth/oidc.test.ts.
  it('when Connect page is followed, then 303 to the dialog with client, callback, state and scope, and no PKCE challenge by default', async () => {
    const agent = agentFor(stack);
    const url = new URL(await startLogin(agent));
    expect(`${url.origin}${url.pathname}`).toBe(`${stack.emulator.url}/${stack.config.apiVersion}/dialog/oauth`);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe(stack.config.appId);
    expect(q.get('redirect_uri')).toBe('http://app.test/auth/callback');
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')).toBe('pages_show_list pages_read_engagement');
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('code_challenge')).toBeNull();
    expect(q.get('code_challenge_method')).toBeNull();
    expect(q.get('nonce')).toBeNull();
    expect(q.get('client_secret')).toBeNull();
  });

  it('when the person continues at the dialog, then the code is exchanged, the session id changes and the picker lists their pages', async () => {
    const agent = agentFor(stack);
    const start = await agent.get('/auth/login').expect(303);
    const before = sessionCookie(start);
    const callback = await signIn(agent);
    expect(callback.status).toBe(303);
    expect(callback.headers.location).toBe('/pages');
    const after = sessionCookie(callback);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);

    const picker = await agent.get('/pages').expect(200);
    expect(visibleText(picker.text)).toContain('Lovelace Analytical Bakery');
    expect(visibleText(picker.text)).toContain('Difference Engine Repairs');
    expect(formTo(picker.text, `/pages/${BAKERY}/connect`)?.method).toBe('post');
  });

  it('when a page is connected, then its details and the first 25 posts show', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    expect(headline(page.text)).toBe('Lovelace Analytical Bakery');
    for (const text of ['Casual', 'Parking lot and street parking', 'Monday'])
      expect(textOf(page.text)).toContain(text);
    expect(links(page.text).some((l) => l.href.startsWith('mailto:'))).toBe(true);
    expect(findAll(page.text, { tag: 'time', attrs: { datetime: true } }).length).toBeGreaterThan(0);
    expect(links(page.text)).toContainEqual(
      expect.objectContaining({
        href: expect.stringMatching(/^https:\/\//),
        rel: ['noopener', 'noreferrer', 'nofollow'],
      }),
    );
    expect(postIds(page.text)).toHaveLength(25);
  });

  it('when Older posts is followed from a connected page, then it pages through every post once, to the end', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    const seen = postIds(page.text);
    let html = page.text;
    for (let i = 0; i < 5; i++) {
      const older = hrefOf(html, 'Older posts');
      if (!older) break;
      const res = await agent.get(older).expect(200);
      html = res.text;
      seen.push(...postIds(html));
    }
    expect(seen.length).toBeGreaterThanOrEqual(60);
    expect(new Set(seen).size).toBe(seen.length);
    expect(visibleText(html)).not.toContain('Older posts');
    expect(visibleText(html)).toContain('Newer posts');
  });

  it('when the home page is opened while connected, then it lists the connected page', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    await agent.get(`/pages/${BAKERY}`).expect(200);
    const home = await agent.get('/').expect(200);
    expect(links(home.text).map((l) => l.href)).toContain(`/pages/${BAKERY}`);
    expect(visibleText(home.text)).toContain('Lovelace Analytical Bakery');
    expect(visibleText(home.text)).toContain('Log out');
  });

  it('when a page has few fields and no posts, then one quiet line names the missing fields, the feed has an empty state, and a non-http website is not a link', async () => {
    const agent = await connectedAgent(stack, SPARSE);
    const page = await agent.get(`/pages/${SPARSE}`).expect(200);
    const missing = findAll(page.text, { tag: 'p', class: 'missing' }).map(textOf);
    expect(missing).toEqual([expect.stringMatching(/^No .*opening hours.* given\.$/)]);
    expect(visibleText(page.text)).not.toContain('Not given');
    expect(visibleText(page.text)).toContain('This page has no posts yet.');
    expect(links(page.text).filter((l) => /^(javascript|ftp|data):/i.test(l.href))).toEqual([]);
  });

  it('when the person logs out with the form, then the session is destroyed and the page is no longer visible', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    const out = await agent
      .post('/auth/logout')
      .type('form')
      .send({ _csrf: csrfFrom(page.text) })
      .expect(303);
    expect(out.headers.location).toBe('/?logged_out=1');
    expect(String(out.headers['set-cookie'])).toMatch(/pagelight=;/);
    const after = await agent.get(`/pages/${BAKERY}`).expect(401);
    expect(visibleText(after.text)).toContain('Connect page');
    expect(visibleText((await agent.get('/?logged_out=1').expect(200)).text)).toContain('You are logged out.');
  });

  it('when a POST comes without the CSRF token, then 403 and nothing changes', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    await agent.post('/auth/logout').type('form').send({}).expect(403);
    await agent.post('/auth/logout').type('form').send({ _csrf: 'forged' }).expect(403);
    await agent.post(`/pages/${SPARSE}/connect`).type('form').send({ _csrf: 'x' }).expect(403);
    await agent.get(`/pages/${BAKERY}`).expect(200);
  });

  it('when a person who manages no page logs in, then the picker says so', async () => {
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.alan });
    const picker = await agent.get('/pages').expect(200);
    expect(visibleText(picker.text)).toContain('You manage no Pages that Pagelight can see');
  });

  it('when a person asks for a page they do not manage, then 403 and no token is kept', async () => {
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.alan });
    const picker = await agent.get('/pages').expect(200);
    const res = await agent
      .post(`/pages/${BAKERY}/connect`)
      .type('form')
      .send({ _csrf: csrfFrom(picker.text) })
      .expect(403);
    expect(visibleText(res.text)).toContain("account doesn't manage this Page");
  });
});

describe('with FB_PAGE_ID configured', () => {
  const stack = useStack({ env: { FB_PAGE_ID: BAKERY } });

  it('when the login completes, then the configured page is connected directly and shown', async () => {
    const agent = agentFor(stack);
    const callback = await signIn(agent);
    expect(callback.status).toBe(303);
    expect(callback.headers.location).toBe(`/pages/${BAKERY}`);
    await agent.get('/pages').expect(303).expect('location', `/pages/${BAKERY}`);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    expect(postIds(page.text)).toHaveLength(25);
  });
});
