import { SEED_IDS } from '@pagelight/graph-emulator';
import { SESSIONS_SINCE_KEY } from '../../src/session/lapse';
import { completeDialog } from '../support/dialog';
import { connectedAgent, csrfFrom, pathOf, signedInAgent, signIn, startLogin } from '../support/flow';
import { agentFor, startStack, type Agent, useStack } from '../support/stack';
import { headline, hrefOf, jargonIn, operatorText, visibleText } from '../support/words';
import { find, formTo, linkTo, textOf } from '../support/dom';

const BAKERY = SEED_IDS.pages.bakery;
const CAFE = SEED_IDS.pages.cafe;

/** Every error state a person can meet, in people's words with an action that helps (docs/architecture.md#error-model). */
describe('pages that speak to people', () => {
  const stack = useStack({ timeoutMs: 300 });
  beforeEach(() => stack.emulator.controls.reset());

  async function connected(pageId = BAKERY): Promise<Agent> {
    const agent = await connectedAgent(stack, pageId);
    return agent;
  }

  function expectPlain(html: string): void {
    expect(jargonIn(html)).toEqual([]);
  }

  describe('idle expiry and signing in', () => {
    it('when someone who never connected opens a page, then 401 "Connect…" whose action comes back to that page', async () => {
      const res = await agentFor(stack).get(`/pages/${BAKERY}`).expect(401);
      expect(headline(res.text)).toBe('Connect with Facebook to see this');
      expect(hrefOf(res.text, 'Connect page')).toBe(`/auth/login?return_to=${encodeURIComponent(`/pages/${BAKERY}`)}`);
      expectPlain(res.text);
    });

    it('when the session behind a cookie is gone (idle expiry), then 401 "Your session timed out — connect again"', async () => {
      const agent = await connected();
      const page = await agent.get(`/pages/${BAKERY}`).expect(200);
      expect(visibleText(page.text)).toContain('Signed in as');
      // The store has held its sessions for longer than the idle lifetime: this one lapsed, none was lost.
      const longAgo = Date.now() - (stack.config.sessionIdleSec + 60) * 1000;
      await stack.sessions.records.put(SESSIONS_SINCE_KEY, String(longAgo), 3600);
      await new Promise<void>((resolve, reject) =>
        stack.sessions.store.clear?.((err?: unknown) => (err ? reject(err) : resolve())),
      );
      const res = await agent.get(`/pages/${BAKERY}/feed?after=QVFIUmx1`).expect(401);
      expect(headline(res.text)).toBe('Your session timed out — connect again');
      const connect = hrefOf(res.text, 'Connect again');
      expect(connect).toBe(`/auth/login?return_to=${encodeURIComponent(`/pages/${BAKERY}/feed?after=QVFIUmx1`)}`);
      expectPlain(res.text);
    });
  });

  describe('Facebook signs the person out', () => {
    it.each([
      ['expired (463)', () => stack.emulator.controls.expireTokens(), 'Your sign-in had expired'],
      [
        'password changed (460)',
        () => stack.emulator.controls.revokeTokens({ reason: 'password_changed' }),
        'Your Facebook password was changed',
      ],
      [
        'app removed (458)',
        () => stack.emulator.controls.revokeTokens({ reason: 'app_removed' }),
        'Pagelight was removed from the apps of your Facebook account',
      ],
      [
        'logged out (467)',
        () => stack.emulator.controls.revokeTokens({ reason: 'logged_out' }),
        'You logged out of Facebook',
      ],
    ])(
      'when the token is %s, then home says "Facebook signed you out of Pagelight" and why, with Connect',
      async (_n, fault, why) => {
        const agent = await connected();
        fault();
        const back = `/?return_to=${encodeURIComponent(`/pages/${BAKERY}`)}`;
        await agent.get(`/pages/${BAKERY}`).expect(303).expect('location', back);
        const home = await agent.get(back).expect(200);
        const text = visibleText(home.text);
        expect(text).toContain('Facebook signed you out of Pagelight — connect again.');
        expect(text).toContain(why);
        // Connect leads back to the page the person was reading.
        expect(hrefOf(home.text, 'Connect page')).toBe(
          `/auth/login?return_to=${encodeURIComponent(`/pages/${BAKERY}`)}`,
        );
        expectPlain(home.text);
      },
    );
  });

  describe('Facebook is slow or limits us', () => {
    it('when Facebook does not answer in time, then 504 "didn\'t answer in time — Try again", and Try again works once it answers', async () => {
      const agent = await connected();
      stack.emulator.controls.failNext(6, { kind: 'hang' });
      const res = await agent.get(`/pages/${BAKERY}`).expect(504);
      expect(headline(res.text)).toBe("Facebook didn't answer in time — Try again");
      const retry = hrefOf(res.text, 'Try again');
      expect(retry).toBe(`/pages/${BAKERY}`);
      expectPlain(res.text);
      stack.emulator.controls.reset();
      await agent.get(retry!).expect(200);
    });

    it('when a form post meets a timeout, then Try again leads back to the page the form was on', async () => {
      const agent = await signedInAgent(stack);
      const picker = await agent.get('/pages').expect(200);
      stack.emulator.controls.failNext(6, { kind: 'hang' });
      const res = await agent
        .post(`/pages/${CAFE}/connect`)
        .type('form')
        .send({ _csrf: csrfFrom(picker.text) });
      stack.emulator.controls.reset();
      expect([502, 504]).toContain(res.status);
      expect(hrefOf(res.text, 'Try again')).toBe('/pages');
    });

    it('when a Try again path is not one of our pages, then it leads to the start instead', async () => {
      const res = await agentFor(stack).get('/auth/login?rerequest=2').expect(400);
      expect(hrefOf(res.text, 'Back to the start')).toBe('/');
      expectPlain(res.text);
    });

    it('when Facebook limits requests, then 429 with Retry-After and the wait in minutes people read', async () => {
      const agent = await connected();
      stack.emulator.controls.failNext(6, {
        status: 403,
        error: { code: 4, message: '(#4) Application request limit reached' },
      });
      const res = await agent.get(`/pages/${BAKERY}`);
      stack.emulator.controls.reset();
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('60');
      expect(headline(res.text)).toBe('Facebook asked Pagelight to slow down');
      expect(visibleText(res.text)).toContain('Please try again in about a minute.');
      expect(hrefOf(res.text, 'Try again')).toBe(`/pages/${BAKERY}`);
      expectPlain(res.text);
    });
  });

  describe('permissions', () => {
    it('when the feed permission was declined, then the page shows what it can and, in the feed, an explanation with Ask again', async () => {
      // Grace declines: the provider remembers declines, and the other tests log Ada in with every permission.
      const agent = await connectedAgent(stack, BAKERY, {
        user: SEED_IDS.users.grace,
        decline: ['pages_read_engagement'],
      });
      const reads = stack.emulator.controls.calls({ path: BAKERY });
      const res = await agent.get(`/pages/${BAKERY}`).expect(200);
      // The details and the feed, read once each: what was refused is not asked again.
      expect(stack.emulator.controls.calls({ path: BAKERY }) - reads).toBe(2);
      expect(find(res.text, { class: 'feed-blocked' })).toBeDefined();
      expect(visibleText(res.text)).toContain("Read your Page's posts and details");
      expect(headline(res.text)).toBe('Lovelace Analytical Bakery');
      expect(hrefOf(res.text, 'Ask again')).toBe(
        `/auth/login?rerequest=1&return_to=${encodeURIComponent(`/pages/${BAKERY}`)}`,
      );
      expect(find(res.text, { id: 'feed-posts' })).toBeUndefined();
      expectPlain(res.text);
      const again = await startLogin(agent, `?rerequest=1&return_to=${encodeURIComponent(`/pages/${BAKERY}`)}`);
      expect(new URL(again).searchParams.get('auth_type')).toBe('rerequest');
    });

    it('when older posts are refused for a permission, then 403 names it in words, the identifier only for the operator', async () => {
      const agent = await connected();
      stack.emulator.controls.failNext(2, {
        status: 403,
        error: { code: 200, message: '(#200) Requires pages_read_engagement permission to manage the object' },
      });
      const res = await agent.get(`/pages/${BAKERY}/feed?after=QVFIUmx1`);
      stack.emulator.controls.reset();
      expect(res.status).toBe(403);
      expect(visibleText(res.text)).toContain("“Read your Page's posts and details”");
      expect(operatorText(res.text)).toContain('pages_read_engagement');
      expect(hrefOf(res.text, 'Ask again')).toMatch(/^\/auth\/login\?rerequest=1&return_to=/);
      expectPlain(res.text);
    });

    it('when the permission to list Pages was declined, then the picker says so, with Ask again', async () => {
      const agent = agentFor(stack);
      // Mary Fairfax declines this one, so Grace's later logins keep their Page list.
      await signIn(agent, { user: SEED_IDS.users.fairfax, decline: ['pages_show_list'] });
      const res = await agent.get('/pages').expect(200);
      expect(visibleText(res.text)).toContain("Pagelight can't see your Pages");
      expect(visibleText(res.text)).not.toContain('You manage no Pages');
      expect(hrefOf(res.text, 'Ask again')).toBe('/auth/login?rerequest=1');
      expectPlain(res.text);
    });

    it('when the person manages no Pages, then the picker says that, not that a permission was declined', async () => {
      const agent = await signedInAgent(stack, { user: SEED_IDS.users.alan });
      const res = await agent.get('/pages').expect(200);
      expect(visibleText(res.text)).toContain('You manage no Pages that Pagelight can see');
      expect(visibleText(res.text)).not.toContain("can't see your Pages");
      expectPlain(res.text);
    });
  });

  describe('the header of signed-in pages', () => {
    it('when signed in, then the header has the name, Switch page (to the picker) and Log out', async () => {
      const agent = await connected();
      const res = await agent.get(`/pages/${BAKERY}`).expect(200);
      const nav = find(res.text, { tag: 'nav', attrs: { 'aria-label': 'Account' } })!;
      expect(textOf(nav)).toBe('Signed in as Ada Lovelace Switch page Log out');
      expect(linkTo(nav, 'Switch page')?.href).toBe('/pages');
      expect(formTo(nav, '/auth/logout')).toMatchObject({ method: 'post', values: { _csrf: expect.any(String) } });
    });

    it('when FB_PAGE_ID pins one page, then there is no Switch page', async () => {
      const pinned = await startStack({ env: { FB_PAGE_ID: BAKERY } });
      try {
        const agent = agentFor(pinned);
        await signIn(agent).then((r) => expect(r.headers.location).toBe(`/pages/${BAKERY}`));
        const res = await agent.get(`/pages/${BAKERY}`).expect(200);
        expect(visibleText(res.text)).toContain('Log out');
        expect(hrefOf(res.text, 'Switch page')).toBeUndefined();
      } finally {
        await pinned.close();
      }
    });
  });

  describe('return to the page asked for', () => {
    it('when a person who is not signed in opens a page and connects, then the login ends on that page', async () => {
      const agent = agentFor(stack);
      const refused = await agent.get(`/pages/${BAKERY}`).expect(401);
      const dialog = await startLogin(agent, hrefOf(refused.text, 'Connect page')!.replace('/auth/login', ''));
      const back = await agent.get(pathOf(await completeDialog(dialog))).expect(303);
      expect(back.headers.location).toBe(`/pages/${BAKERY}`);
      await agent.get(`/pages/${BAKERY}`).expect(200);
    });

    it('when a login that comes back to a page declined its permission, then the page still has its name and says what is missing', async () => {
      const agent = agentFor(stack);
      const dialog = await startLogin(agent, `?return_to=${encodeURIComponent(`/pages/${BAKERY}`)}`);
      const callback = await completeDialog(dialog, { user: SEED_IDS.users.grace, decline: ['pages_read_engagement'] });
      await agent.get(pathOf(callback)).expect(303).expect('location', `/pages/${BAKERY}`);
      const res = await agent.get(`/pages/${BAKERY}`).expect(200);
      expect(headline(res.text)).toBe('Lovelace Analytical Bakery');
      expect(visibleText(res.text)).toContain("Pagelight can't show this Page's posts or details");
      expectPlain(res.text);
    });

    it('when the page asked for is older posts, then the login ends there', async () => {
      const agent = agentFor(stack);
      const first = await connected();
      const page = await first.get(`/pages/${BAKERY}`).expect(200);
      const older = hrefOf(page.text, 'Older posts')!;
      const dialog = await startLogin(agent, `?return_to=${encodeURIComponent(older)}`);
      const back = await agent.get(pathOf(await completeDialog(dialog))).expect(303);
      expect(back.headers.location).toBe(older);
      await agent.get(older).expect(200);
    });

    it('when the page asked for is not among the Pages the person connects, then the picker, with a note', async () => {
      const agent = agentFor(stack);
      const dialog = await startLogin(agent, `?return_to=${encodeURIComponent(`/pages/${CAFE}`)}`);
      const back = await agent.get(pathOf(await completeDialog(dialog))).expect(303);
      expect(back.headers.location).toBe('/pages');
      const picker = await agent.get('/pages').expect(200);
      expect(visibleText(picker.text)).toContain("The Page you asked for isn't among the Pages you connected");
    });

    it.each([
      '//evil.example',
      '/\\evil.example',
      '/%2F%2Fevil',
      'https://evil.example',
      'javascript:alert(1)',
      '/pages\r\nLocation: https://evil.example',
      `/pages/${'1'.repeat(2000)}`,
      '/auth/logout',
    ])('when the return path is %j, then the login ends at the picker, never elsewhere', async (payload) => {
      const agent = agentFor(stack);
      const dialog = await startLogin(agent, `?return_to=${encodeURIComponent(payload)}`);
      const back = await agent.get(pathOf(await completeDialog(dialog))).expect(303);
      expect(back.headers.location).toBe('/pages');
    });
  });

  describe('a stale callback', () => {
    it('when a signed-in person reloads the callback, then the picker with "You\'re already connected", not a refusal', async () => {
      const agent = agentFor(stack);
      const dialog = await startLogin(agent);
      const callback = pathOf(await completeDialog(dialog));
      await agent.get(callback).expect(303);
      const again = await agent.get(callback).expect(303);
      expect(again.headers.location).toBe('/pages');
      const picker = await agent.get('/pages').expect(200);
      expect(visibleText(picker.text)).toContain("You're already connected.");
    });

    it('when a signed-in person goes Back into the dialog and Continue, then the same quiet note', async () => {
      const agent = agentFor(stack);
      const dialog = await startLogin(agent);
      await agent.get(pathOf(await completeDialog(dialog))).expect(303);
      // The same dialog page again: its state was used up by the first Continue.
      const second = await agent.get(pathOf(await completeDialog(dialog))).expect(303);
      expect(second.headers.location).toBe('/pages');
    });

    it('when someone not signed in brings a callback whose state is not pending, then the refusal stays (403)', async () => {
      const victim = agentFor(stack);
      const dialog = await startLogin(agentFor(stack));
      const callback = pathOf(await completeDialog(dialog));
      const res = await victim.get(callback).expect(403);
      expect(headline(res.text)).toBe("We couldn't finish connecting");
      expect(hrefOf(res.text, 'Connect again')).toBe('/auth/login');
      expectPlain(res.text);
    });
  });
});
