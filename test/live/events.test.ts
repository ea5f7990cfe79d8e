import { SEED_IDS } from '@pagelight/graph-emulator';
import { CookieClient } from '../support/cookie-client';
import { realLogin } from '../support/login';
import { openStream, type EventStream } from '../support/sse';
import { eventually } from '../support/wait';
import { LIVE_ENV, useServedStack } from '../support/stack';
import { deliver, feedDelivery } from '../webhooks/deliver';
import { csrfToken, dataOf } from '../support/dom';

const BAKERY = SEED_IDS.pages.bakery;
const SPARSE = SEED_IDS.pages.sparse;

/** docs/architecture.md#live-updates */
describe('GET /pages/:pageId/events', () => {
  // Granted pages_manage_metadata, so connecting the page subscribes it and the page view is live.
  const served = useServedStack({
    env: { ...LIVE_ENV, LIVE_STREAMS_PER_SESSION: '2', LIVE_HEARTBEAT_SECONDS: '1' },
  });
  let person: CookieClient;
  const streams: EventStream[] = [];
  const open = async (path = `/pages/${BAKERY}/events`, who = person) => {
    const s = await openStream(served.url, path, who.cookieHeader());
    streams.push(s);
    return s;
  };

  beforeAll(async () => {
    person = new CookieClient(served.url);
    const outcome = await realLogin(served.url, undefined, BAKERY, person);
    expect(outcome.ok).toBe(true);
  });
  afterEach(async () => {
    for (const s of streams.splice(0)) s.close();
    // The server lets go of a closed stream when it sees the socket close: the next test's bound starts empty.
    await eventually(() => served.stack.streams.size === 0);
  });

  it('when a session holds a token for the page, then the stream opens with a retry hint, and a delivery produces a new-posts event with a count only', async () => {
    const stream = await open();
    expect(stream.status).toBe(200);
    await stream.received('retry: ');
    const res = await deliver(
      served.url,
      feedDelivery(BAKERY, { item: 'status', verb: 'add', message: 'USER TEXT' }, { item: 'photo', verb: 'add' }),
    );
    expect(res.status).toBe(200);
    await stream.received('event: new-posts');
    expect(stream.text()).toContain('event: new-posts\ndata: {"count":2}\n\n');
    expect(stream.text()).not.toContain('USER TEXT');
  });

  it('when a post arrives between the page being rendered and its stream opening, then the stream still tells of it', async () => {
    // The page view names the moment it was rendered; the stream replays what the page has not seen since.
    const page = await person.get(`/pages/${BAKERY}`);
    const events = dataOf(await page.text(), 'events');
    expect(events).toMatch(new RegExp(`^/pages/${BAKERY}/events\\?since=\\d+$`));
    const res = await deliver(served.url, feedDelivery(BAKERY, { item: 'status', verb: 'add', message: 'in between' }));
    expect(res.status).toBe(200);
    const late = await open(events);
    await late.received('event: new-posts');
    expect(late.text()).toContain('event: new-posts\ndata: {"count":1}\n\n');
    // A stream opened without `since` (or with a time after the change) replays nothing.
    const fresh = await open(`/pages/${BAKERY}/events?since=${Date.now() + 1000}`);
    // A replay is written right after the retry hint; the first heartbeat comes after all of it.
    await fresh.received(': heartbeat');
    expect(fresh.text()).not.toContain('event: new-posts');
    expect((await open(`/pages/${BAKERY}/events?since=soon`)).status).toBe(400);
  });

  it('when nobody is logged in, then 401; when the session holds no token for the page, then 403', async () => {
    const anonymous = await open(`/pages/${BAKERY}/events`, new CookieClient(served.url));
    expect(anonymous.status).toBe(401);
    expect((await open(`/pages/${SPARSE}/events`)).status).toBe(403);
    expect((await open('/pages/not-a-page/events')).status).toBe(400);
  });

  it('when the session already has its bound of streams open, then the next gets 429; closing one frees a slot', async () => {
    const first = await open();
    await open();
    expect((await open()).status).toBe(429);
    first.close();
    // The slot is freed when the server sees the socket close: ask again until it has, however long that takes.
    await eventually(async () => (await open()).status === 200);
  });

  it('while a stream is quiet, then a heartbeat comes at the configured interval', async () => {
    const opened = performance.now();
    const stream = await open();
    await stream.received(': heartbeat');
    // Not before the interval (LIVE_HEARTBEAT_SECONDS=1); how late it may be is the machine's business.
    expect(performance.now() - opened).toBeGreaterThanOrEqual(900);
  });

  it('when the person logs out, then their open stream ends', async () => {
    const other = new CookieClient(served.url);
    expect((await realLogin(served.url, undefined, BAKERY, other)).ok).toBe(true);
    const stream = await open(`/pages/${BAKERY}/events`, other);
    expect(stream.status).toBe(200);
    const home = await (await other.get('/')).text();
    const csrf = csrfToken(home);
    expect(csrf).toBeDefined();
    expect((await other.post('/auth/logout', { _csrf: csrf! })).status).toBe(303);
    await stream.ended;
  });
});
