import type { AppContext } from '../context';
import { BadRequestError } from '../errors';
import { GraphApiError } from '../graph/errors';
import type { FeedResponse, PageDetails } from '../graph/schemas';
import type { PageAccess, PageChanges } from '../session/access';
import { DETAILS_FIELDS, dropOnRefusal, listPages, readThroughCache, withChanges } from './cache-policy';
import { admitReads } from './fairness';
import type { Load } from './pipeline';
import { pageName } from './page-view';

/**
 * How a Page is loaded for its views: through the cache shared between sessions by its policy
 * (./cache-policy.ts), or upstream with this session's own page token. Everything here takes what the route read
 * from the session as a value ({@link PageAccess}) and gives back its outcome and what the session should keep;
 * the pipeline writes it (./pipeline.ts).
 */

export type Settled<A, B> = [PromiseSettledResult<A>, PromiseSettledResult<B>];

/** The two reads of a Page, each as it ended, and what the session learned meanwhile. */
export interface PageRead {
  answers: Settled<PageDetails, FeedResponse>;
  changes: PageChanges;
}

/** What the page view shows, or the failure that is the page's error. */
export type PageOutcome =
  | { details: PageDetails; feed: FeedResponse; refusal?: undefined; fallbackName: '' }
  | { details: PageDetails; feed?: undefined; refusal: GraphApiError; fallbackName: string };

/**
 * Details and the first feed page, fetched in parallel: one upstream round trip of latency. Call only once
 * the session is known to hold `token` for the page.
 *
 * A cache hit never shows whether *this* session's token still works, so the cache serves a session only
 * while its own token succeeded upstream for the page within PAGE_CACHE_TTL; otherwise this view goes
 * upstream with its token and the answer refreshes the cache. A token the provider revoked thus loses the
 * page within PAGE_CACHE_TTL and one view, however warm others keep it.
 */
export async function readPage(ctx: AppContext, access: PageAccess, token: string): Promise<PageRead> {
  const { pageId } = access;
  const admit = admitReads(ctx, access);
  const { answers, changes } = await readThroughCache(ctx, access, [
    { part: 'details', variant: DETAILS_FIELDS, load: () => ctx.graph.pageDetails(token, pageId, admit) },
    { part: 'feed', variant: 'first', load: () => ctx.graph.feed(token, pageId, {}, admit) },
  ] as const);
  return { answers, changes };
}

/**
 * The page view's load: both reads, and when the provider refused a permission (the person declined
 * `pages_read_engagement`, or the Page's settings keep its posts from the app) the details alone when they
 * were read, else only the name the session knows, and no feed (docs/architecture.md#error-model). Any other
 * failure is the page's error, as for every read.
 */
export async function loadPage(ctx: AppContext, access: PageAccess, token: string): Promise<Load<PageOutcome>> {
  const { answers, changes } = await readPage(ctx, access, token);
  const known = withChanges(access, changes);
  const [detailsRead, feedRead] = answers;
  const failures = answers.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (detailsRead.status === 'fulfilled' && feedRead.status === 'fulfilled') {
    const details = detailsRead.value;
    if (details.name) changes.name = pageName(details, '');
    return { outcome: { details, feed: feedRead.value, fallbackName: '' }, changes };
  }
  failures.forEach((err) => dropOnRefusal(ctx, known, err));
  const other = failures.find((err) => !isPermissionError(err));
  if (other !== undefined) return { outcome: { error: other }, changes };
  const refusal = (feedRead.status === 'rejected' ? feedRead.reason : failures[0]) as GraphApiError;
  const details: PageDetails = detailsRead.status === 'fulfilled' ? detailsRead.value : { id: access.pageId };
  const fallbackName = await knownName(ctx, known);
  if (details.name) changes.name = pageName(details, fallbackName);
  return { outcome: { details, refusal, fallbackName }, changes };
}

/**
 * The page's name when its details cannot be read: as the session last had it, else from the person's
 * list of Pages (kept briefly, so usually no call), else none.
 */
async function knownName(ctx: AppContext, access: PageAccess): Promise<string> {
  if (access.name) return access.name;
  if (!access.userToken) return '';
  const list = await listPages(ctx, access, access.userToken, access.scopes).catch(() => undefined);
  return list?.pages.find((p) => p.id === access.pageId)?.name ?? '';
}

/**
 * The first feed page alone, for the "new posts — Show" button of a live page: read as the page view reads it,
 * cache included, and failing as it does, details included (a refusal drops what it hid).
 */
export async function loadFreshPosts(
  ctx: AppContext,
  access: PageAccess,
  token: string,
): Promise<Load<{ feed: FeedResponse }>> {
  const { answers, changes } = await readPage(ctx, access, token);
  const [details, feed] = answers;
  const failure = details.status === 'rejected' ? details : feed.status === 'rejected' ? feed : undefined;
  if (failure !== undefined) {
    dropOnRefusal(ctx, withChanges(access, changes), failure.reason);
    return { outcome: { error: failure.reason }, changes };
  }
  return { outcome: { feed: (feed as PromiseFulfilledResult<FeedResponse>).value }, changes };
}

/** Where an older (or newer) feed page starts: one of the cursors of our own links. */
export interface FeedPageQuery {
  after?: string | undefined;
  before?: string | undefined;
}

/**
 * An older (or newer) feed page, upstream with the session's token (a cursor's page is not cached), and the
 * header card as on the page view, read alongside: one round trip of latency. Details refused (a declined
 * permission) still leave the posts worth showing, under the name alone.
 */
export async function loadOlderPosts(
  ctx: AppContext,
  access: PageAccess,
  token: string,
  query: FeedPageQuery,
): Promise<Load<{ feed: FeedResponse; details: PageDetails }>> {
  const { pageId } = access;
  const load = () => ctx.graph.pageDetails(token, pageId, admitReads(ctx, access));
  const [feed, read] = await Promise.all([
    settle(ctx.graph.feed(token, pageId, { after: query.after, before: query.before }, admitReads(ctx, access))),
    readThroughCache(ctx, access, [{ part: 'details', variant: DETAILS_FIELDS, load }] as const),
  ]);
  const [details] = read.answers;
  const { changes } = read;
  if (feed.status === 'rejected') {
    dropOnRefusal(ctx, access, feed.reason);
    return { outcome: { error: staleLink(feed.reason) }, changes };
  }
  if (details.status === 'fulfilled') return { outcome: { feed: feed.value, details: details.value }, changes };
  dropOnRefusal(ctx, access, details.reason);
  if (isPermissionError(details.reason)) return { outcome: { feed: feed.value, details: { id: pageId } }, changes };
  return { outcome: { error: details.reason }, changes };
}

/**
 * The provider's "invalid parameter" (100) on a cursor or comment id the person brought in the link: an old or
 * edited link, not a fault of ours or the provider's (a 400). Any other failure as it is.
 */
export function staleLink(err: unknown): unknown {
  if (err instanceof GraphApiError && err.graph.code === 100 && err.code === 'graph_invalid')
    return new BadRequestError({ key: 'error.feed.staleLink' });
  return err;
}

/** A read's outcome as a value, as Promise.allSettled gives each. */
export function settle<T>(read: Promise<T>): Promise<PromiseSettledResult<T>> {
  return Promise.allSettled([read]).then(([result]) => result as PromiseSettledResult<T>);
}

export function isPermissionError(err: unknown): err is GraphApiError {
  return err instanceof GraphApiError && err.kind === 'permission';
}
