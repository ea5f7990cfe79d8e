import { SEED_IDS, TEST_SEED } from '@pagelight/graph-emulator';
import { AccountsCache } from '../../src/cache/accounts';
import { MemoryPageCache } from '../../src/cache/memory-page-cache';
import type { AppContext } from '../../src/context';
import { PAGE_INSIGHT_METRICS, POST_VIEWERS_METRIC } from '../../src/graph/provider';
import { insightsRange, loadPostViewers } from '../../src/pages/insights-load';
import { ConcurrentReadLimit, SessionRateLimit } from '../../src/pages/fairness';
import type { PageAccess } from '../../src/session/access';
import { useStack, type Stack } from '../support/stack';

const { bakery: BAKERY } = SEED_IDS.pages;
const POST = TEST_SEED.pages.find((p) => p.id === BAKERY)!.feed[0]!.id;
const ADA = SEED_IDS.users.ada;

/** The load's context over the stack's real graph client and emulator, with a page cache of its own. */
function contextOf(stack: Stack): AppContext {
  return {
    // The app asks for read_insights: the loads are offered (src/pages/offered.ts).
    config: { pageCacheTtlSec: 60, scopes: ['pages_show_list', 'pages_read_engagement', 'read_insights'] },
    graph: stack.graph,
    pageCache: new MemoryPageCache({ ttlSec: 60 }),
    accounts: new AccountsCache(60),
    concurrentReadLimit: new ConcurrentReadLimit(4),
    sessionRateLimit: new SessionRateLimit(1000),
    now: Date.now,
  } as unknown as AppContext;
}

function accessFor(stack: Stack, pageId: string, over: Partial<PageAccess> = {}): PageAccess {
  const userToken = stack.emulator.controls.issueToken({ userId: ADA }).access_token;
  const pageToken = stack.emulator.controls.issueToken({ userId: ADA, pageId }).access_token;
  return {
    sessionId: 'sid-1',
    request: 1,
    userToken,
    scopes: ['pages_read_engagement', 'pages_show_list', 'read_insights'],
    pages: [{ id: pageId, name: 'A page' }],
    pageId,
    pageToken,
    tasks: ['ANALYZE', 'CREATE_CONTENT', 'MANAGE', 'MODERATE'],
    tokenConfirmedAt: Date.now(),
    live: false,
    name: 'A page',
    ...over,
  };
}

/** docs/provider-interface.md#insights: what the app asks the provider for, and a post's viewers. */
describe('the insights reads', () => {
  const stack = useStack();
  afterEach(() => stack.emulator.controls.reset());

  it('when the app asks for Page insights, then exactly these metrics — none the provider retired', () => {
    expect(PAGE_INSIGHT_METRICS).toEqual([
      'page_media_view',
      'page_total_media_view_unique',
      'page_post_engagements',
      'page_follows',
      'page_daily_follows_unique',
    ]);
    expect(POST_VIEWERS_METRIC).toBe('post_total_media_view_unique');
    // page_impressions*, page_fans*, page_fan_adds*, and the *_unique reach metrics removed with v26.0; reach,
    // which "Viewers" (*_total_media_view_unique) replaces; total_video_consumption_rate, which returns no data
    // on any version from early November 2026 (v27.0 blog).
    for (const metric of [...PAGE_INSIGHT_METRICS, POST_VIEWERS_METRIC]) {
      expect(metric).not.toMatch(
        /^(page|post)_impressions|^page_fan|^page_posts_impressions|^page_video_views_unique$|reach|total_video_consumption_rate/,
      );
    }
  });

  it('when the range is worked out at any moment of a day, then it is the same 56 whole days ending at a day end (07:00 UTC)', () => {
    const morning = insightsRange(Date.UTC(2026, 10, 24, 7, 30));
    const night = insightsRange(Date.UTC(2026, 10, 25, 6, 59));
    expect(night).toEqual(morning);
    expect(morning.until).toBe(Date.UTC(2026, 10, 24, 7) / 1000);
    expect(morning.until - morning.since).toBe(56 * 24 * 3600);
  });

  it('when a post’s viewers are loaded, then the count comes back, and a second load is served from the cache', async () => {
    const ctx = contextOf(stack);
    const access = accessFor(stack, BAKERY);
    const postId = POST;
    stack.emulator.controls.clearLog();
    const first = await loadPostViewers(ctx, access, access.pageToken!, postId);
    expect(first.outcome).toEqual({ viewers: expect.any(Number) });
    const again = await loadPostViewers(ctx, access, access.pageToken!, postId);
    expect(again.outcome).toEqual(first.outcome);
    const calls = stack.emulator.controls.log.filter((e) => e.path.endsWith(`/${postId}/insights`));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.query).toMatchObject({ metric: 'post_total_media_view_unique', period: 'lifetime' });
  });

  it.each([
    ['read_insights is not granted', { scopes: ['pages_read_engagement', 'pages_show_list'] }, 'not_granted'],
    ['the role lacks ANALYZE', { tasks: ['MODERATE'] }, 'no_analyze'],
  ] as const)(
    'when %s, then the post has no viewers figure, for that reason, without a call',
    async (_, over, blocked) => {
      stack.emulator.controls.clearLog();
      const access = accessFor(stack, BAKERY, over);
      const loaded = await loadPostViewers(contextOf(stack), access, access.pageToken!, POST);
      expect(loaded.outcome).toEqual({ blocked });
      expect(stack.emulator.controls.log.filter((e) => e.path.endsWith('/insights'))).toHaveLength(0);
    },
  );

  it('when the post’s Page is below the provider’s threshold (empty data), then no_data', async () => {
    stack.emulator.controls.setPageField(BAKERY, 'fan_count', 40);
    const access = accessFor(stack, BAKERY);
    const loaded = await loadPostViewers(contextOf(stack), access, access.pageToken!, POST);
    expect(loaded.outcome).toEqual({ blocked: 'no_data' });
  });

  it('when the provider refuses the viewers metric, then the outcome says so instead of failing', async () => {
    stack.emulator.controls.refuseMetric('post_total_media_view_unique');
    const access = accessFor(stack, BAKERY);
    const loaded = await loadPostViewers(contextOf(stack), access, access.pageToken!, POST);
    expect(loaded.outcome).toEqual({ blocked: 'refused' });
  });
});
