import { SEED_IDS } from '@pagelight/graph-emulator';
import { PAGE_INSIGHT_METRICS } from '../../src/graph/provider';
import { connectedAgent } from '../support/flow';
import { agentFor, useStack, type Stack } from '../support/stack';
import { attr, find, findAll, textOf } from '../support/dom';
import { hrefOf, visibleText } from '../support/words';

const { bakery: BAKERY, sparse: SPARSE } = SEED_IDS.pages;
const ADA = SEED_IDS.users.ada;
const SCOPES = 'pages_show_list pages_read_engagement read_insights';
const DAY_SEC = 24 * 60 * 60;

/** The provider's insights calls so far, with their query. */
const insightCalls = (stack: Stack) => stack.emulator.controls.log.filter((e) => e.path.endsWith('/insights'));

/** The sections of the insights page: each chart's title, its total and its table's rows. */
function charts(html: string): { title: string; total: string; rows: number; caption: string }[] {
  return findAll(html, { tag: 'section', class: 'insight' }).map((section) => ({
    title: textOf(find(section, 'h2')!),
    total: textOf(find(section, { tag: 'strong', class: 'total' })!),
    rows: findAll(section, 'tr').filter((tr) => find(tr, 'td')).length,
    caption: textOf(find(section, 'caption')!),
  }));
}

/** docs/provider-interface.md#insights, docs/architecture.md#views */
describe('GET /pages/:pageId/insights', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES } });
  afterEach(() => stack.emulator.controls.reset());

  it('when a manager who granted read_insights opens it, then four charts of 28 days with their tables, totals and changes, from one call', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.clearLog();
    const html = (await agent.get(`/pages/${BAKERY}/insights`).expect(200)).text;
    expect(charts(html).map((c) => c.title)).toEqual(['Views', 'Viewers', 'Post engagements', 'New follows']);
    for (const chart of charts(html)) {
      expect(chart.rows).toBe(28);
      expect(chart.total).toMatch(/^[\d,]+ [a-z ]+$/);
      expect(chart.caption).toMatch(/per day, \d{1,2} \w+ \d{4} – \d{1,2} \w+ \d{4}$/);
    }
    const svgs = findAll(html, { tag: 'svg', class: 'chart' });
    expect(svgs.filter((svg) => attr(svg, 'role') === 'img' && attr(svg, 'aria-label'))).toHaveLength(4);
    expect(
      findAll(html, { tag: 'path', class: 'line' }).filter((p) => /^M[\d. L]+$/.test(attr(p, 'd') ?? '')),
    ).toHaveLength(4);
    expect(visibleText(html)).toMatch(/(Up|Down) \d+% on the 28 days before|About the same as the 28 days before/);
    expect(visibleText(html)).toMatch(/[\d,]+ followers on \d{1,2} \w+ \d{4}/);
    // One call, exactly the metrics the app asks for, by day, over 56 whole days.
    const calls = insightCalls(stack);
    expect(calls).toHaveLength(1);
    const query = calls[0]!.query;
    expect(query.metric).toBe(PAGE_INSIGHT_METRICS.join(','));
    expect(query.period).toBe('day');
    expect(Number(query.until) - Number(query.since)).toBe(56 * DAY_SEC);
  });

  it('when the header card and the insights both give the followers, then they give the same figure', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const card = visibleText((await agent.get(`/pages/${BAKERY}`).expect(200)).text);
    const insights = visibleText((await agent.get(`/pages/${BAKERY}/insights`).expect(200)).text);
    const onCard = /([\d,]+) followers/.exec(card)?.[1];
    expect(onCard).toBeDefined();
    expect(insights).toMatch(new RegExp(`${onCard} followers on \\d{1,2} \\w+ \\d{4}`));
  });

  it('when the page view is shown, then its header card links to the insights', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const html = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
    expect(hrefOf(html, 'Insights')).toBe(`/pages/${BAKERY}/insights`);
  });

  it('when the person’s role on the Page lacks the ANALYZE task, then a screen says so and no insights call is made', async () => {
    stack.emulator.controls.setRole(ADA, BAKERY, ['MODERATE', 'CREATE_CONTENT']);
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.clearLog();
    const html = (await agent.get(`/pages/${BAKERY}/insights`).expect(200)).text;
    expect(visibleText(html)).toContain("Your role on this Page doesn't include insights");
    expect(insightCalls(stack)).toHaveLength(0);
  });

  it('when the role loses ANALYZE after connecting, then the provider’s refusal is shown as the same screen, not an error', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.setRole(ADA, BAKERY, ['MODERATE']);
    const html = (await agent.get(`/pages/${BAKERY}/insights`).expect(200)).text;
    expect(visibleText(html)).toContain("Your role on this Page doesn't include insights");
    expect(insightCalls(stack)).toHaveLength(1);
  });

  it('when the Page is below the provider’s threshold (empty data), then a screen says there are no insights yet', async () => {
    const agent = await connectedAgent(stack, SPARSE);
    const html = (await agent.get(`/pages/${SPARSE}/insights`).expect(200)).text;
    expect(visibleText(html)).toContain('No insights for this Page yet');
    expect(visibleText(html)).toContain('100 or more likes');
    expect(charts(html)).toHaveLength(0);
  });

  it('when the provider refuses one metric, then the others are charted and the page names the one unavailable', async () => {
    stack.emulator.controls.refuseMetric('page_post_engagements');
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.clearLog();
    const html = (await agent.get(`/pages/${BAKERY}/insights`).expect(200)).text;
    expect(charts(html).map((c) => c.title)).toEqual(['Views', 'Viewers', 'New follows']);
    expect(visibleText(html)).toContain(
      'Facebook no longer gives this figure, so it is missing here: Post engagements.',
    );
    // The call with every metric, then one per metric to tell which the provider refuses.
    expect(insightCalls(stack).map((c) => c.query.metric)).toEqual([
      PAGE_INSIGHT_METRICS.join(','),
      ...PAGE_INSIGHT_METRICS,
    ]);
  });

  it('when nobody is connected, then 401 and no call', async () => {
    stack.emulator.controls.clearLog();
    await agentFor(stack).get(`/pages/${BAKERY}/insights`).expect(401);
    expect(insightCalls(stack)).toHaveLength(0);
  });

  it('when the page id is not digits, then 400 before any call', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    await agent.get('/pages/abc/insights').expect(400);
  });
});

/** docs/provider-interface.md#insights: a stack of its own, since the provider remembers a decline (no later login re-asks). */
describe('GET /pages/:pageId/insights, read_insights declined', () => {
  const stack = useStack({ env: { FB_SCOPES: SCOPES } });

  it('when the person declined read_insights, then a screen says which permission to grant, with Ask again, and no insights call', async () => {
    const agent = await connectedAgent(stack, BAKERY, { decline: ['read_insights'] });
    stack.emulator.controls.clearLog();
    const html = (await agent.get(`/pages/${BAKERY}/insights`).expect(200)).text;
    expect(visibleText(html)).toContain('Pagelight needs your permission to show insights');
    expect(visibleText(html)).toContain("the permission “See your Page's insights” wasn't granted");
    expect(hrefOf(html, 'Ask again')).toBe(
      `/auth/login?rerequest=1&return_to=${encodeURIComponent(`/pages/${BAKERY}/insights`)}`,
    );
    expect(insightCalls(stack)).toHaveLength(0);
  });
});

/** docs/architecture.md#page-cache: the insights are a part of the page cache, under the page's rules. */
describe('GET /pages/:pageId/insights, cached', () => {
  let now = Date.now();
  const stack = useStack({ env: { FB_SCOPES: SCOPES, PAGE_CACHE_TTL: '60' }, now: () => now });
  const cachedInsights = () => stack.cache.entries().filter((e) => e.key.startsWith(`${BAKERY}\u0000insights`));

  it('when two managers with the same grant and role open it, then the provider is asked once', async () => {
    const first = await connectedAgent(stack, BAKERY);
    const second = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.clearLog();
    await first.get(`/pages/${BAKERY}/insights`).expect(200);
    await second.get(`/pages/${BAKERY}/insights`).expect(200);
    await first.get(`/pages/${BAKERY}/insights`).expect(200);
    expect(insightCalls(stack)).toHaveLength(1);
  });

  it('when the provider revoked the token, then within PAGE_CACHE_TTL the view asks it again, the cached insights go and the person connects again', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    await agent.get(`/pages/${BAKERY}/insights`).expect(200);
    expect(cachedInsights().length).toBeGreaterThan(0);
    stack.emulator.controls.revokeTokens({ userId: ADA });
    now += 61_000;
    const res = await agent.get(`/pages/${BAKERY}/insights`).expect(303);
    expect(res.headers.location).toBe(`/?return_to=${encodeURIComponent(`/pages/${BAKERY}/insights`)}`);
    expect(cachedInsights()).toHaveLength(0);
  });
});
