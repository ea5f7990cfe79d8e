import { Writable } from 'node:stream';
import request from 'supertest';
import { SEED_IDS, startEmulator, type RunningEmulator } from '@pagelight/graph-emulator';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { buildContext, contextClosers, type AppContext } from '../../src/context';
import { createLogger } from '../../src/log/logger';
import { signIn, signInAndConnect } from '../support/flow';
import { signedRequest } from '../support/signed-request';
import { APP_ID, APP_SECRET, appEnv, BASE_URL } from '../support/stack';
import { attr, find, links, textOf } from '../support/dom';
import { visibleText } from '../support/words';

const ADA = SEED_IDS.users.ada;
const BAKERY = SEED_IDS.pages.bakery;

/**
 * The provider sends the deauthorize callback, then the data-deletion one. Deletion removes everything held for
 * the person and its receipt tells what both did; a login that began before the removal does not complete
 * (docs/architecture.md#provider-callbacks).
 */
describe('removing the app, then asking for deletion', () => {
  let emulator: RunningEmulator;
  let ctx: AppContext;
  let app: ReturnType<typeof createApp>;
  /** The app's clock runs this far from the wall clock: a test moves it to say what happened before what. */
  let shift = 0;
  beforeEach(async () => {
    shift = 0;
    emulator = await startEmulator({
      seed: 'test',
      clients: [{ clientId: APP_ID, clientSecret: APP_SECRET, redirectUri: `${BASE_URL}/auth/callback`, name: 'T' }],
    });
    const config = loadConfig({
      ...appEnv(emulator.url),
      PAGE_CACHE_TTL: '60',
      ACCOUNTS_CACHE_TTL: '60',
    });
    const quiet = new Writable({ write: (_c, _e, done) => done() });
    ctx = buildContext(config, {
      logger: createLogger({ level: 'silent', destination: quiet }),
      now: () => Date.now() + shift,
    });
    app = createApp(ctx);
  });
  afterEach(async () => {
    for (const closer of contextClosers(ctx)) await closer.close();
    await emulator.close();
  });

  const callback = (path: string) =>
    request(app)
      .post(path)
      .type('form')
      .send({ signed_request: signedRequest(APP_SECRET, { user_id: ADA }, { now: Date.now() + shift }) })
      .expect(200);

  /** Every cached answer of the page cache, as stored. */
  const pageCacheDump = () => {
    const lru = (ctx.pageCache as unknown as { lru?: { dump(): unknown[] } }).lru;
    return JSON.stringify(lru?.dump() ?? []);
  };

  it('when deauthorize came first, then the receipt counts the sessions and Pages it ended, and no token of theirs is left in a cache', async () => {
    const ada = request.agent(app);
    await signInAndConnect(ada, BAKERY, { user: ADA });
    await ada.get(`/pages/${BAKERY}`).expect(200);
    const issued = emulator.controls.issuedTokens();
    expect(issued.length).toBeGreaterThan(0);
    expect(issued.some((t) => ctx.accounts.peek(t) !== undefined)).toBe(true);

    await callback('/auth/deauthorize');
    const res = await callback('/auth/data-deletion');
    const { confirmation_code: code } = res.body as { confirmation_code: string };

    const receipt = await request(app).get(`/auth/data-deletion/${code}`).expect(200);
    expect(visibleText(receipt.text)).toContain('ended your signed-in session on every server');
    expect(visibleText(receipt.text)).toContain('the Page you had connected');
    const when = find(receipt.text, 'time')!;
    expect(attr(when, 'datetime')).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    expect(attr(when, 'data-exact')).toBe('');
    expect(textOf(when)).toMatch(/^\d{1,2} \w{3} \d{4}, \d\d:\d\d UTC$/);

    // The lists of their pages (which carry page tokens) and the pages' cached answers are gone.
    for (const token of issued) expect(ctx.accounts.peek(token)).toBeUndefined();
    const dump = pageCacheDump();
    for (const token of issued) expect(dump).not.toContain(token);
    expect(dump).not.toContain(BAKERY);
  });

  it('when the deletion comes alone, then it counts what it ended itself, and the person is not named in any record', async () => {
    const ada = request.agent(app);
    await signInAndConnect(ada, BAKERY, { user: ADA });
    const res = await callback('/auth/data-deletion');
    const { confirmation_code: code } = res.body as { confirmation_code: string };
    const receipt = await request(app).get(`/auth/data-deletion/${code}`).expect(200);
    expect(receipt.text).toContain('ended your signed-in session on every server');
    // A second request later reports only what was left to delete.
    const again = await callback('/auth/data-deletion');
    const second = await request(app)
      .get(`/auth/data-deletion/${(again.body as { confirmation_code: string }).confirmation_code}`)
      .expect(200);
    expect(second.text).toContain('found no signed-in session of yours left to end');
    const records = ctx.sessions.records as unknown as { lru: { dump(): unknown[] } };
    expect(JSON.stringify(records.lru.dump())).not.toContain(ADA);
  });

  it('when a login began before the removal and comes back after it, then it is refused with "connect again", and a new login works', async () => {
    // The app was removed 5 s from now; this login begins now and completes after.
    shift = 5_000;
    await callback('/auth/deauthorize');
    shift = 0;
    const late = request.agent(app);
    // signIn() begins and completes at the same app time: before the removal, as a dialog left open would.
    const refused = await signIn(late, { user: ADA });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('This login began before you removed Pagelight');
    expect(links(refused.text).map((l) => l.href)).toContain('/auth/login');
    expect((await late.get('/').expect(200)).text).not.toContain('Signed in as');
    expect(await ctx.sessions.index.sessionsOf(ADA)).toEqual([]);

    shift = 6_000;
    const fresh = request.agent(app);
    expect((await signIn(fresh, { user: ADA })).status).toBe(303);
    expect(visibleText((await fresh.get('/').expect(200)).text)).toContain('Signed in as Ada Lovelace');
  });
});
