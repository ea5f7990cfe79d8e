import { SEED_IDS, type LogEntry } from '@pagelight/graph-emulator';
import { MemorySessionIndex } from '../../src/session/user-index';
import { APP_SECRET, agentFor, type Agent, useStack } from '../support/stack';
import { completeDialog } from '../support/dialog';
import { pathOf, startLogin, connectedAgent } from '../support/flow';
import { signedRequest } from '../support/signed-request';
import { attr, csrfToken, findAll, links } from '../support/dom';
import { visibleText } from '../support/words';

const ADA = SEED_IDS.users.ada;
const GRACE = SEED_IDS.users.grace;
const BAKERY = SEED_IDS.pages.bakery;

/** docs/architecture.md#provider-callbacks */
describe('provider callbacks (deauthorize, data deletion)', () => {
  const stack = useStack({}, { perTest: true });

  const index = () => stack.sessions.index as MemorySessionIndex;
  const post = (path: string, form: Record<string, string> | string) =>
    agentFor(stack).post(path).type('form').send(form);

  async function signedIn(user: 'ada' | 'grace'): Promise<Agent> {
    const agent = await connectedAgent(stack, BAKERY, { user: SEED_IDS.users[user] });
    return agent;
  }

  describe('the identity read at login', () => {
    it('when a person signs in, then every signed-in page says "Signed in as <name>" and the session is indexed', async () => {
      const ada = await signedIn('ada');
      const home = await ada.get('/').expect(200);
      expect(visibleText(home.text)).toContain('Signed in as Ada Lovelace');
      expect(visibleText((await ada.get(`/pages/${BAKERY}`).expect(200)).text)).toContain('Signed in as Ada Lovelace');
      expect(await stack.sessions.index.sessionsOf(ADA)).toHaveLength(1);
    });

    it('when a person signs in, then /me is read in the same step as the long-lived exchange: two round trips, not three', async () => {
      const agent = agentFor(stack);
      const callback = await completeDialog(await startLogin(agent), { user: ADA });
      const latency = 300;
      stack.emulator.controls.clearLog();
      stack.emulator.controls.setLatency(latency);
      await agent.get(pathOf(callback)).expect(303);
      stack.emulator.controls.setLatency(0);
      // When each call reached the provider (the log's `at`), not how long the whole took: a busy machine moves
      // the total, not the order. The code exchange, then the long-lived exchange, permissions and /me at once.
      const arrived = (match: (e: LogEntry) => boolean) =>
        stack.emulator.controls.requestLog.filter(match).map((e) => e.at);
      const [code] = arrived((e) => e.kind === 'token' && e.form.grant_type !== 'fb_exchange_token');
      const second = [
        ...arrived((e) => e.form.grant_type === 'fb_exchange_token' || e.query.grant_type === 'fb_exchange_token'),
        ...arrived((e) => e.kind === 'graph' && /\/me$/.test(e.path)),
        ...arrived((e) => e.kind === 'graph' && /\/me\/permissions$/.test(e.path)),
      ];
      expect(code).toBeDefined();
      expect(second).toHaveLength(3);
      // Each waited for the code exchange's answer (one round trip), and none for another's (the same step).
      for (const at of second) expect(at - code!).toBeGreaterThanOrEqual(latency - 5);
      expect(Math.max(...second) - Math.min(...second)).toBeLessThan(latency / 2);
      expect(visibleText((await agent.get('/').expect(200)).text)).toContain('Signed in as Ada Lovelace');
    });
  });

  describe.each(['/auth/deauthorize', '/auth/data-deletion'])('POST %s', (path) => {
    const bad: [string, () => string][] = [
      ['a forged signature (another secret)', () => signedRequest('not-the-app-secret-0000', { user_id: ADA })],
      ['another algorithm', () => signedRequest(APP_SECRET, { user_id: ADA, algorithm: 'HMAC-SHA1' })],
      ['no algorithm', () => signedRequest(APP_SECRET, { user_id: ADA, algorithm: undefined })],
      [
        'an old issued_at (replay)',
        () => signedRequest(APP_SECRET, { user_id: ADA }, { now: Date.now() - 2 * 3600_000 }),
      ],
      [
        'an issued_at far in the future',
        () => signedRequest(APP_SECRET, { user_id: ADA }, { now: Date.now() + 3600_000 }),
      ],
      [
        'a payload that is not JSON',
        () => signedRequest(APP_SECRET, {}, { rawPayload: Buffer.from('{nope').toString('base64url') }),
      ],
      ['a user_id that is not an id', () => signedRequest(APP_SECRET, { user_id: '../1' })],
      ['no user_id', () => signedRequest(APP_SECRET, { user_id: undefined })],
      ['one part only', () => signedRequest(APP_SECRET, { user_id: ADA }).split('.')[1]!],
      ['three parts', () => `${signedRequest(APP_SECRET, { user_id: ADA })}.x`],
      ['characters outside base64url', () => `ab$c.${signedRequest(APP_SECRET, { user_id: ADA }).split('.')[1]!}`],
      ['an empty value', () => ''],
      ['a huge value', () => 'a'.repeat(3000) + '.' + 'b'.repeat(10)],
    ];

    it.each(bad)(
      'when the signed_request has %s, then 400 with a short JSON error and no session ends',
      async (_name, make) => {
        const ada = await signedIn('ada');
        const res = await post(path, { signed_request: make() }).expect(400);
        expect(res.body).toEqual({ error: 'invalid_signed_request', reason: expect.any(String) as string });
        expect(res.headers['set-cookie']).toBeUndefined();
        expect(visibleText((await ada.get('/').expect(200)).text)).toContain('Signed in as Ada Lovelace');
        expect(await stack.sessions.index.sessionsOf(ADA)).toHaveLength(1);
      },
    );

    it('when the body is over the limit, then 400 and nothing changes', async () => {
      const ada = await signedIn('ada');
      const valid = signedRequest(APP_SECRET, { user_id: ADA });
      const res = await post(path, `signed_request=${valid}&pad=${'x'.repeat(8000)}`).expect(400);
      expect(res.body).toEqual({ error: 'invalid_request', reason: 'too_large' });
      expect(visibleText((await ada.get('/').expect(200)).text)).toContain('Signed in as Ada Lovelace');
    });

    it('when there is no signed_request at all (JSON body, no body), then 400', async () => {
      await agentFor(stack).post(path).send({ signed_request: 'x' }).expect(400);
      await agentFor(stack).post(path).expect(400);
    });

    it('when the request is valid, then every session of that person ends and the open tab is told why; others stay', async () => {
      const adaTab1 = await signedIn('ada');
      const adaTab2 = await signedIn('ada');
      const grace = await signedIn('grace');
      expect(await stack.sessions.index.sessionsOf(ADA)).toHaveLength(2);

      const res = await post(path, { signed_request: signedRequest(APP_SECRET, { user_id: ADA }) }).expect(200);
      expect(res.headers['set-cookie']).toBeUndefined();

      // Whatever the open tab asks next, it is signed out and told why, once.
      const page = await adaTab1.get(`/pages/${BAKERY}`).expect(401);
      expect(page.text).toContain('You removed Pagelight from your Facebook settings');
      const home = await adaTab2.get('/').expect(200);
      expect(home.text).toContain('You removed Pagelight from your Facebook settings');
      expect(home.text).not.toContain('Signed in as');
      expect(links(home.text).map((l) => l.href)).toContain('/auth/login');
      const again = await adaTab2.get('/').expect(200);
      expect(again.text).not.toContain('You removed Pagelight');
      expect(await stack.sessions.index.sessionsOf(ADA)).toEqual([]);
      expect(visibleText((await grace.get('/').expect(200)).text)).toContain('Signed in as Grace Hopper');
      expect(await stack.sessions.index.sessionsOf(GRACE)).toHaveLength(1);
      // The user id may be logged; the signed_request never is.
      expect(stack.logs.text).toContain(ADA);
      expect(stack.logs.text).not.toContain('signed_request=');
    });

    it('when the person has no session here, then 200 all the same', async () => {
      await post(path, { signed_request: signedRequest(APP_SECRET, { user_id: '999' }) }).expect(200);
    });
  });

  describe('POST /auth/data-deletion', () => {
    it('when valid, then the answer gives a status URL and a confirmation code, and the status page says what was deleted and when', async () => {
      await signedIn('ada');
      const res = await post('/auth/data-deletion', {
        signed_request: signedRequest(APP_SECRET, { user_id: ADA }),
      }).expect(200);
      const body = res.body as { url: string; confirmation_code: string };
      expect(body.confirmation_code).toMatch(/^[0-9a-f]{32}$/);
      expect(body.url).toBe(`${stack.config.baseUrl}/auth/data-deletion/${body.confirmation_code}`);

      const page = await agentFor(stack).get(`/auth/data-deletion/${body.confirmation_code}`).expect(200);
      expect(page.text).toContain('Your data was deleted');
      expect(page.text).toContain(body.confirmation_code);
      expect(page.text).toContain('ended your signed-in session on every server');
      expect(findAll(page.text, 'time').map((t) => attr(t, 'datetime'))).toContainEqual(
        expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      );
      expect(page.headers['set-cookie']).toBeUndefined();
    });

    it('when the code is unknown or not a code, then 404', async () => {
      await agentFor(stack)
        .get(`/auth/data-deletion/${'0'.repeat(32)}`)
        .expect(404);
      await agentFor(stack).get('/auth/data-deletion/not-a-code').expect(404);
      await agentFor(stack)
        .get(`/auth/data-deletion/${'A'.repeat(32)}`)
        .expect(404);
    });
  });

  describe('the session index', () => {
    it('when many sessions are created and expire, then the index is empty after', async () => {
      const { createMemorySessionStore } = await import('../../src/session/store');
      const clock = { ms: 1_000_000, now: () => clock.ms };
      const handle = createMemorySessionStore({ sessionIdleSec: 1 }, undefined, undefined, clock);
      const idx = handle.index as MemorySessionIndex;
      const store = handle.store as unknown as {
        set(sid: string, sess: unknown, cb: () => void): void;
        prune(): void;
        get(sid: string, cb: (e: unknown, s?: unknown) => void): void;
      };
      const expires = new Date(Date.now() + 1000).toISOString();
      for (let i = 0; i < 2000; i++) {
        await new Promise<void>((resolve) =>
          store.set(
            `sid-${i}`,
            {
              cookie: { expires, originalMaxAge: 1000 },
              signIn: {
                userToken: 'x',
                expiresAt: null,
                loggedInAt: Date.now(),
                pages: {},
                userId: String(1000 + (i % 50)),
              },
            },
            resolve,
          ),
        );
      }
      expect(idx.size).toEqual({ users: 50, sessions: 2000 });
      clock.ms += 1100;
      store.prune();
      expect(idx.size).toEqual({ users: 0, sessions: 0 });
      await handle.close();
    });

    it('when a person logs out, then their session leaves the index', async () => {
      const ada = await signedIn('ada');
      const home = await ada.get('/').expect(200);
      const csrf = csrfToken(home.text)!;
      await ada.post('/auth/logout').type('form').send({ _csrf: csrf }).expect(303);
      expect(await stack.sessions.index.sessionsOf(ADA)).toEqual([]);
      expect(index().size.sessions).toBe(0);
    });
  });
});
