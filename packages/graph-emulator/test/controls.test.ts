import request from 'supertest';
import { startEmulator } from '../src';
import {
  CLIENT,
  graphError,
  graphGet,
  makeEmulator,
  OLDER_CLIENTS,
  PAGES,
  pageToken,
  USERS,
  userToken,
} from './helpers';

describe('controls: expiring and revoking tokens', () => {
  it('when tokens are expired, then Graph answers 190/463 "Session has expired on …"', async () => {
    const { app, controls } = makeEmulator();
    const user = await userToken(app);
    const page = await pageToken(app, user, PAGES.bakery);
    expect(controls.expireTokens()).toBeGreaterThanOrEqual(2);
    for (const token of [user, page]) {
      const res = await graphGet(app, '/me', token).expect(400);
      expect(graphError(res.body)).toMatchObject({
        code: 190,
        error_subcode: 463,
        message: expect.stringMatching(/^Error validating access token: Session has expired on /),
      });
      expect(res.headers['www-authenticate']).toMatch(/"invalid_token"/);
    }
  });

  it('when the short-lived user token outlives userTokenTtlSec, then it expires by itself', async () => {
    const emu = makeEmulator({ userTokenTtlSec: 60 });
    const user = await userToken(emu.app);
    emu.clock.advance(61_000);
    const res = await graphGet(emu.app, '/me', user).expect(400);
    expect(graphError(res.body).error_subcode).toBe(463);
  });

  it('when only one page is targeted, then tokens of other pages keep working', async () => {
    const { app, controls } = makeEmulator();
    const user = await userToken(app);
    const bakery = await pageToken(app, user, PAGES.bakery);
    const sparse = await pageToken(app, user, PAGES.sparse);
    expect(controls.expireTokens({ pageId: PAGES.bakery })).toBe(1);
    await graphGet(app, '/me', bakery).expect(400);
    await graphGet(app, '/me', sparse).expect(200);
    await graphGet(app, '/me', user).expect(200);
  });

  it.each([
    [undefined, 460],
    ['password_changed', 460],
    ['app_removed', 458],
    ['logged_out', 467],
  ] as const)(
    'when tokens are revoked (reason %s), then 190 with subcode %i, page tokens included',
    async (reason, subcode) => {
      const { app, controls } = makeEmulator();
      const user = await userToken(app);
      const page = await pageToken(app, user, PAGES.bakery);
      controls.revokeTokens({ userId: USERS.ada, ...(reason !== undefined ? { reason } : {}) });
      for (const token of [user, page]) {
        const res = await graphGet(app, '/me', token).expect(400);
        expect(graphError(res.body)).toMatchObject({ code: 190, error_subcode: subcode });
      }
    },
  );

  it('when one user token is revoked by value, then the page tokens derived from it go too, other users stay', async () => {
    const { app, controls } = makeEmulator();
    const ada = await userToken(app);
    const page = await pageToken(app, ada, PAGES.bakery);
    const grace = await userToken(app, { user: USERS.grace });
    expect(controls.revokeTokens({ token: ada })).toBe(2);
    await graphGet(app, '/me', page).expect(400);
    await graphGet(app, '/me', grace).expect(200);
  });

  it('when a control gets a malformed filter, then it throws a message naming the field', () => {
    const { controls } = makeEmulator();
    expect(() => controls.expireTokens({ userId: 'ada' })).toThrow(/expireTokens: userId/);
  });
});

describe('controls: latency and scripted failures', () => {
  it('when latency is set, then Graph and token calls are delayed, the dialog is not', async () => {
    const { app, controls } = makeEmulator();
    const user = await userToken(app);
    controls.setLatency(150);
    let t = Date.now();
    await graphGet(app, '/me', user).expect(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
    t = Date.now();
    await request(app)
      .get('/v23.0/dialog/oauth')
      .query({ client_id: CLIENT.clientId, redirect_uri: CLIENT.redirectUri })
      .expect(200);
    expect(Date.now() - t).toBeLessThan(140);
    controls.setLatency(0);
  });

  it('when latency is set, then it is the round trip: the answer is made when the request comes in and held until the latency has passed', async () => {
    const { app, controls } = makeEmulator();
    const user = await userToken(app);
    const page = await pageToken(app, user, PAGES.bakery);
    controls.setLatency(150);
    const t = Date.now();
    const answer = graphGet(app, `/v23.0/${PAGES.bakery}`, page).query({ fields: 'name' });
    const sent = answer.then((res) => res);
    // Changed while the answer is on its way: the provider had already read the page.
    await new Promise((resolve) => setTimeout(resolve, 50));
    controls.setPageField(PAGES.bakery, 'name', 'Renamed meanwhile');
    const res = await sent;
    expect(res.status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
    expect(res.body.name).not.toBe('Renamed meanwhile');
    controls.setLatency(0);
  });

  it('when a Graph error is scripted for 2 calls, then exactly the next 2 get it, with the given status and default message', async () => {
    const { app, controls } = makeEmulator();
    const user = await userToken(app);
    controls.failNext(2, { status: 503, error: { code: 2 } });
    for (let i = 0; i < 2; i++) {
      const res = await graphGet(app, '/me', user).expect(503);
      expect(graphError(res.body)).toMatchObject({ code: 2, type: 'OAuthException', message: expect.any(String) });
    }
    await graphGet(app, '/me', user).expect(200);
  });

  it('when scripted failures have not fired, then pendingFailures lists them with what remains, and clearFailures drops them', async () => {
    const { app, controls } = makeEmulator();
    const user = await userToken(app);
    controls.failNext(2, { status: 503, error: { code: 2 } });
    controls.failNext(1, { kind: 'reset', match: '/feed' });
    await graphGet(app, '/me', user).expect(503);
    expect(controls.pendingFailures()).toEqual([
      { remaining: 1, failure: { kind: 'graph', status: 503, error: { code: 2 } } },
      { remaining: 1, failure: { kind: 'reset', match: '/feed' } },
    ]);
    expect(controls.clearFailures()).toBe(2);
    expect(controls.pendingFailures()).toEqual([]);
    await graphGet(app, '/me', user).expect(200);
  });

  it('when a failure has a match, then only requests whose path contains it fail', async () => {
    const { app, controls } = makeEmulator();
    const user = await userToken(app);
    const page = await pageToken(app, user, PAGES.bakery);
    controls.failNext(1, { error: { code: 190, subcode: 460 }, match: '/feed' });
    await graphGet(app, '/me', user).expect(200);
    const res = await graphGet(app, `/${PAGES.bakery}/feed`, page).expect(400);
    expect(graphError(res.body)).toMatchObject({ code: 190, error_subcode: 460 });
    expect(res.headers['www-authenticate']).toBeDefined();
  });

  it('when an HTTP failure is scripted, then a non-JSON body with that status (token endpoint included)', async () => {
    const { app, controls } = makeEmulator();
    controls.failNext(1, { kind: 'http', status: 502, match: 'access_token' });
    const res = await request(app).post('/oauth/access_token').type('form').send({ code: 'x' }).expect(502);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('Bad Gateway');
    controls.failNext(1, { kind: 'http', status: 200, body: 'not json', contentType: 'text/plain' });
    expect((await request(app).get('/me').expect(200)).text).toBe('not json');
  });

  it('when a slow failure is scripted, then the answer is delayed and then normal', async () => {
    const { app, controls } = makeEmulator();
    const user = await userToken(app);
    controls.failNext(1, { kind: 'slow', ms: 120 });
    const t = Date.now();
    await graphGet(app, '/me', user).expect(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(110);
  });

  it('when a reset is scripted, then the connection is destroyed without an answer; a hang never answers until close', async () => {
    const emulator = await startEmulator({ clients: [CLIENT] });
    try {
      emulator.controls.failNext(1, { kind: 'reset' });
      await expect(fetch(`${emulator.url}/me`)).rejects.toThrow();
      emulator.controls.failNext(1, { kind: 'hang' });
      const hung = fetch(`${emulator.url}/me`, { signal: AbortSignal.timeout(300) });
      await expect(hung).rejects.toThrow();
      expect(emulator.controls.requestLog.map((e) => e.status)).toEqual([null, null]);
      expect((await fetch(`${emulator.url}/me`)).status).toBe(400);
    } finally {
      await emulator.close();
    }
  });

  it('when failNext gets a malformed failure, then it throws instead of scripting nothing', () => {
    const { controls } = makeEmulator();
    expect(() => controls.failNext(1, { kind: 'http' } as never)).toThrow(/failNext/);
    expect(() => controls.failNext(0, { kind: 'reset' })).toThrow(/positive integer/);
  });
});

describe('controls: rate limits and usage headers (docs/specification.md#usage-headers)', () => {
  it('when user-token calls exceed the budget, then code 17 (403), and X-App-Usage shows the percentage from the second call on, never a regain estimate', async () => {
    const { app, controls } = makeEmulator();
    const user = await userToken(app);
    controls.setRateLimit({ calls: 4, windowMs: 60_000 });
    const usage: (number | undefined)[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await graphGet(app, '/me', user).expect(200);
      const header = res.headers['x-app-usage'];
      usage.push(header === undefined ? undefined : (JSON.parse(header).call_count as number));
    }
    expect(usage).toEqual([undefined, 50, 75, 100]);
    const over = await graphGet(app, '/me', user).expect(403);
    expect(graphError(over.body)).toMatchObject({ code: 17, message: '(#17) User request limit reached' });
    expect(JSON.parse(over.headers['x-app-usage'] as string)).not.toHaveProperty('estimated_time_to_regain_access');
  });

  it("when a user token's calls about a Page exceed the budget, then code 32", async () => {
    const { app, controls } = makeEmulator();
    const user = await userToken(app);
    controls.setRateLimit({ calls: 1, windowMs: 60_000 });
    await graphGet(app, `/${PAGES.bakery}`, user).query({ fields: 'access_token' }).expect(200);
    const over = await graphGet(app, `/${PAGES.bakery}`, user).query({ fields: 'access_token' }).expect(403);
    expect(graphError(over.body)).toMatchObject({ code: 32, message: '(#32) Page request limit reached' });
  });

  it('when page-token calls exceed the budget, then code 80001 and X-Business-Use-Case-Usage names the page with the minutes to wait', async () => {
    const emu = makeEmulator();
    const page = await pageToken(emu.app, await userToken(emu.app), PAGES.bakery);
    emu.controls.setRateLimit({ calls: 2, windowMs: 10 * 60_000, headersAfter: 0 });
    const first = await graphGet(emu.app, `/${PAGES.bakery}`, page).expect(200);
    expect(JSON.parse(first.headers['x-business-use-case-usage'] as string)).toEqual({
      [PAGES.bakery]: [
        { type: 'pages', call_count: 50, total_cputime: 50, total_time: 50, estimated_time_to_regain_access: 0 },
      ],
    });
    expect(first.headers['x-app-usage']).toBeUndefined();
    await graphGet(emu.app, `/${PAGES.bakery}`, page).expect(200);
    const over = await graphGet(emu.app, `/${PAGES.bakery}`, page).expect(403);
    expect(graphError(over.body)).toMatchObject({
      code: 80001,
      type: 'OAuthException',
      message: expect.stringContaining('There have been too many calls to this Page account') as unknown,
    });
    expect(
      JSON.parse(over.headers['x-business-use-case-usage'] as string)[PAGES.bakery][0].estimated_time_to_regain_access,
    ).toBe(10);
    emu.clock.advance(10 * 60_000);
    await graphGet(emu.app, `/${PAGES.bakery}`, page).expect(200);
  });

  it('when headersAfter is 3, then the first three calls of a window carry no usage header and the fourth does', async () => {
    const emu = makeEmulator();
    const page = await pageToken(emu.app, await userToken(emu.app), PAGES.bakery);
    emu.controls.setRateLimit({ calls: 100, windowMs: 60_000, headersAfter: 3 });
    const seen: boolean[] = [];
    for (let i = 0; i < 4; i++)
      seen.push(
        (await graphGet(emu.app, `/${PAGES.bakery}`, page).expect(200)).headers['x-business-use-case-usage'] !==
          undefined,
      );
    expect(seen).toEqual([false, false, false, true]);
  });

  it('when no limit is set, then the first call carries no usage header and later ones show 0%', async () => {
    const { app } = makeEmulator();
    const user = await userToken(app);
    const first = await graphGet(app, '/me', user).expect(200);
    expect(first.headers['x-app-usage']).toBeUndefined();
    const res = await graphGet(app, '/me', user).expect(200);
    expect(JSON.parse(res.headers['x-app-usage'] as string)).toEqual({
      call_count: 0,
      total_cputime: 0,
      total_time: 0,
    });
  });
});

describe('controls: data, log and reset', () => {
  it('when a page field is set, then reads show it; when reset, then the seed is back and failures, latency and log are cleared', async () => {
    const { app, controls } = makeEmulator();
    const page = await pageToken(app, await userToken(app), PAGES.bakery);
    controls.setPageField(PAGES.bakery, 'about', '<script>window.__pwned=1</script>');
    controls.setPageField(PAGES.bakery, 'website', null);
    const res = await graphGet(app, `/${PAGES.bakery}`, page).query({ fields: 'about,website' }).expect(200);
    expect(res.body).toEqual({ id: PAGES.bakery, about: '<script>window.__pwned=1</script>' });
    controls.failNext(3, { kind: 'http', status: 500 });
    controls.setLatency(5000);
    controls.reset();
    expect(controls.requestLog).toHaveLength(0);
    const after = await graphGet(app, `/${PAGES.bakery}`, page).query({ fields: 'about,website' }).expect(200);
    expect(after.body.about).toBe('Bread computed to perfection since 1843.');
    expect(after.body.website).toBe('https://lovelace-bakery.example/');
  });

  it('when a field is unknown or the page does not exist, then setPageField throws', () => {
    const { controls } = makeEmulator();
    expect(() => controls.setPageField(PAGES.bakery, 'id', '1')).toThrow();
    expect(() => controls.setPageField('1', 'about', 'x')).toThrow();
  });

  it('when requests are made, then the log keeps method, path, raw query and form, token placement and status; calls() counts API calls only', async () => {
    // An app created before 2026-11-04, which may still send a POST with method=get.
    const { app, controls } = makeEmulator({ clients: OLDER_CLIENTS });
    const user = await userToken(app);
    controls.clearLog();
    await request(app)
      .get('/v23.0/dialog/oauth')
      .query({ client_id: CLIENT.clientId, redirect_uri: CLIENT.redirectUri })
      .expect(200);
    await request(app).post('/me').type('form').send({ method: 'get', access_token: user, fields: 'id' }).expect(200);
    await request(app).get('/me').query({ access_token: 'EAAbad' }).expect(400);
    expect(controls.requestLog.map((e) => [e.kind, e.method, e.status])).toEqual([
      ['dialog', 'GET', 200],
      ['graph', 'POST', 200],
      ['graph', 'GET', 400],
    ]);
    expect(controls.requestLog[1]).toMatchObject({
      path: '/me',
      query: {},
      form: { method: 'get', access_token: user, fields: 'id' },
      tokenVia: 'form',
      tokenKind: 'user',
    });
    expect(controls.requestLog[2]).toMatchObject({
      query: { access_token: 'EAAbad' },
      tokenVia: 'query',
      tokenKind: 'unknown',
    });
    expect(controls.calls()).toBe(2);
    expect(controls.calls({ method: 'post' })).toBe(1);
    expect(controls.calls({ tokenKind: 'unknown' })).toBe(1);
    expect(controls.log).toBe(controls.requestLog);
    expect(controls.issuedTokens()).toContain(user);
  });

  it('when a browser asks for /favicon.ico, then 204 and it is neither logged nor able to consume a scripted failure', async () => {
    const { app, controls } = makeEmulator();
    controls.failNext(1, { kind: 'http', status: 502 });
    await request(app).get('/favicon.ico').expect(204);
    expect(controls.requestLog).toHaveLength(0);
    await request(app).get('/me').expect(502);
  });

  it('when issueToken is used, then it mints user and page tokens without the dialog', async () => {
    const { app, controls } = makeEmulator();
    const { access_token: page, expires_in } = controls.issueToken({
      userId: USERS.grace,
      pageId: PAGES.cafe,
      longLived: true,
    });
    expect(expires_in).toBeNull();
    await graphGet(app, `/${PAGES.cafe}/feed`, page).expect(200);
    expect(() => controls.issueToken({ userId: USERS.alan, pageId: PAGES.cafe })).toThrow(/does not manage/);
  });
});
