import { SEED_IDS } from '@pagelight/graph-emulator';
import request from 'supertest';
import { CATALOGS } from '../../src/i18n/catalogs';
import { signInAndConnect } from '../support/flow';
import { headline, hrefOf } from '../support/words';
import { startObservedStack, type ObservedStack } from '../observe/observed-stack';

const BAKERY = SEED_IDS.pages.bakery;
const LIMIT = 4;
const REFUSED = 40;
/** The headers every page of the app carries (helmet, no-store): a refusal answered in front of the stack has them too. */
const PAGE_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
  'cache-control',
  'vary',
];

/** One sample's value from a Prometheus text scrape (0 when the series is absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

/**
 * A session over its requests a minute is refused in front of the stack (docs/operations.md#a-burst-of-refusals):
 * what a refusal costs is the count and a few precomputed bytes, so that a burst of them costs the other people
 * next to nothing. What a person and an operator see of it stays whole: the page in the person's language with
 * every header a page has, the metrics counting each, and the log saying how many were refused.
 */
describe('the refusals of a burst (a session over its requests a minute)', () => {
  let stack: ObservedStack;
  let served: request.Response;
  let refusals: request.Response[];
  let storeReads: number;
  let lines: { msg?: string; status?: number; refused?: number; route?: string }[];
  let countedRefusals: number;

  beforeAll(async () => {
    stack = await startObservedStack({ SESSION_RATE_LIMIT: String(LIMIT), METRICS_PORT: '9466' });
    const noisy = request.agent(stack.app);
    await signInAndConnect(noisy, BAKERY);
    served = await noisy.get('/privacy').set('Accept-Language', 'de').expect(200);
    const logged = stack.logLines.length;
    // The rest of the session's minute is spent on older posts, up to its first refusal.
    let first: request.Response;
    let spent = 0;
    do first = await noisy.get(`/pages/${BAKERY}/feed?after=c3BlbnQ${spent}`).set('Accept-Language', 'de');
    while (first.status !== 429 && ++spent <= LIMIT);
    const metric = async () =>
      sample(
        (await request(stack.ctx.metrics!.handler).get('/metrics').expect(200)).text,
        'pagelight_http_request_duration_seconds_count',
        { route: '/pages/:pageId/feed', status_class: '4xx' },
      );
    const counted = await metric();
    const store = stack.ctx.sessions.store;
    const read = store.get.bind(store);
    storeReads = 0;
    store.get = (sid, callback) => {
      storeReads++;
      read(sid, callback);
    };
    try {
      const burst = await Promise.all(
        Array.from({ length: REFUSED - 1 }, (_, i) =>
          noisy.get(`/pages/${BAKERY}/feed?after=cmVmdXNlZA${i}`).set('Accept-Language', 'de'),
        ),
      );
      refusals = [first, ...burst];
    } finally {
      store.get = read;
    }
    countedRefusals = (await metric()) - counted;
    lines = stack.logLines
      .slice(logged)
      .flatMap((chunk) => chunk.split('\n').filter(Boolean))
      .map((l) => JSON.parse(l) as (typeof lines)[number]);
  });
  afterAll(() => stack.close());

  it('when a session over its limit asks again and again, then every answer is a 429 that says when to retry', () => {
    expect(refusals.map((r) => r.status)).toEqual(Array.from({ length: REFUSED }, () => 429));
    for (const r of refusals) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('then no refusal reads the session store', () => {
    expect(storeReads).toBe(0);
  });

  it('then the refusal is said in the language the person asks for, with "Try again" to this same address', () => {
    expect(refusals[0]!.headers['content-language']).toBe('de');
    expect(headline(refusals[0]!.text)).toBe(CATALOGS.de['error.too_many_requests.title']);
    expect(hrefOf(refusals[0]!.text, CATALOGS.de['error.action.retry'])).toBe('');
  });

  it('then each refusal carries the security and caching headers of any page', () => {
    for (const name of PAGE_HEADERS)
      for (const r of refusals) expect({ name, value: r.headers[name] }).toEqual({ name, value: served.headers[name] });
    expect(refusals[0]!.headers['x-request-id']).toMatch(/^[\w-]{1,64}$/);
  });

  it('then the metrics count every refusal under its route', () => {
    expect(countedRefusals).toBe(REFUSED - 1);
  });

  it('then the log holds a few lines for the whole burst, not one per refusal, each saying how many were refused so far', () => {
    const refusalLines = lines.filter((l) => l.status === 429);
    expect(refusalLines.map((l) => l.refused)).toEqual([1, 10]);
    for (const line of refusalLines) expect(line.route).toBe('/pages/:pageId/feed');
    expect(lines.filter((l) => l.msg === 'request failed' && l.status === 429)).toEqual([]);
  });
});
