import { AccountsCache } from '../../src/cache/accounts';
import { MemoryPageCache } from '../../src/cache/memory-page-cache';
import type { AppContext } from '../../src/context';
import { GraphApiError } from '../../src/graph/errors';
import type { FeedResponse, PageDetails, PageList } from '../../src/graph/schemas';
import { loadPage } from '../../src/pages/load';
import { ConcurrentReadLimit, SessionRateLimit } from '../../src/pages/fairness';
import type { PageAccess } from '../../src/session/access';

/**
 * The page view's load takes what the route read from the session as a value and gives back what the session
 * should keep; it never sees the request (docs/architecture.md#page-cache).
 */
const NOW = 1_700_000_000_000;
const DETAILS: PageDetails = { id: 'bakery', name: ' Bakery ' };
const FEED: FeedResponse = { data: [] };
const LIST: PageList = { pages: [{ id: 'bakery', name: 'Bakery', tasks: ['MODERATE', 'ANALYZE'] }], cut: false };

function contextWith(graph: { details?: () => Promise<PageDetails>; feed?: () => Promise<FeedResponse> }) {
  const calls = { listPages: 0 };
  const ctx = {
    config: { pageCacheTtlSec: 60 },
    graph: {
      pageDetails: graph.details ?? (async () => DETAILS),
      feed: graph.feed ?? (async () => FEED),
      listPages: async () => {
        calls.listPages++;
        return LIST;
      },
    },
    pageCache: new MemoryPageCache({ ttlSec: 60 }),
    accounts: new AccountsCache(60),
    concurrentReadLimit: new ConcurrentReadLimit(4),
    sessionRateLimit: new SessionRateLimit(1000),
    now: () => NOW,
  } as unknown as AppContext;
  return { ctx, calls };
}

const access = (over: Partial<PageAccess> = {}): PageAccess => ({
  sessionId: 'sid-1',
  request: 1,
  userToken: 'EAA-user',
  scopes: ['pages_read_engagement', 'pages_show_list'],
  pages: [{ id: 'bakery', name: 'Bakery (old)' }],
  pageId: 'bakery',
  pageToken: 'EAA-page',
  tasks: undefined,
  tokenConfirmedAt: undefined,
  live: false,
  name: 'Bakery (old)',
  ...over,
});

const graphError = (code: number, message: string, status: number) =>
  new GraphApiError({ code, message, type: 'OAuthException', subcode: undefined, fbtraceId: undefined }, status);

describe('loadPage', () => {
  it('when the role is not known yet and both reads succeed, then the role, the confirmed token and the name come back as changes', async () => {
    const { ctx, calls } = contextWith({});
    const loaded = await loadPage(ctx, access(), 'EAA-page');
    expect(loaded.outcome).toEqual({ details: DETAILS, feed: FEED, fallbackName: '' });
    expect(loaded.changes).toEqual({ tasks: ['ANALYZE', 'MODERATE'], tokenConfirmedAt: NOW, name: 'Bakery' });
    expect(calls.listPages).toBe(1);
  });

  it('when the session already knows the role and its token was confirmed within the TTL, then the load changes nothing but the name', async () => {
    const { ctx, calls } = contextWith({});
    const known = access({ tasks: ['ANALYZE'], tokenConfirmedAt: NOW - 1000 });
    const loaded = await loadPage(ctx, known, 'EAA-page');
    expect(loaded.changes).toEqual({ name: 'Bakery' });
    expect(calls.listPages).toBe(0);
  });

  it('when the feed is refused a permission, then the details show with the refusal, and the token is not confirmed', async () => {
    const refusal = graphError(10, 'Requires pages_read_engagement', 403);
    const { ctx } = contextWith({ feed: () => Promise.reject(refusal) });
    const loaded = await loadPage(ctx, access({ tasks: ['ANALYZE'] }), 'EAA-page');
    expect(loaded.outcome).toEqual({ details: DETAILS, refusal, fallbackName: 'Bakery (old)' });
    expect(loaded.changes).toEqual({ name: 'Bakery' });
  });

  it('when a read fails otherwise, then the failure is the outcome and what was learned still comes back', async () => {
    const failure = graphError(2, 'Service temporarily unavailable', 503);
    const { ctx } = contextWith({ details: () => Promise.reject(failure) });
    const loaded = await loadPage(ctx, access(), 'EAA-page');
    expect(loaded.outcome).toEqual({ error: failure });
    expect(loaded.changes).toEqual({ tasks: ['ANALYZE', 'MODERATE'] });
  });
});
