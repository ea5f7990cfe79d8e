import type { Request } from 'express';
import type { AppContext } from '../context';
import type { ReadGate } from '../graph/client';
import { PAGE_FIELDS_PARAM, type FeedResponse, type PageDetails, type PageList } from '../graph/schemas';
import type { ConnectedPage } from '../session/types';

/**
 * How a page view reads the page: from the cache shared between sessions, or
 * upstream with this session's own page token.
 * @see docs/architecture.md#page-cache
 */

const DETAILS_FIELDS = PAGE_FIELDS_PARAM;

/**
 * Details and the first feed page, fetched in parallel: one upstream round
 * trip of latency. Call only once the session is known to hold `token` for
 * the page.
 *
 * A cache hit never shows whether *this* session's token still works, so the
 * cache serves a session only while its own token succeeded upstream for the
 * page within PAGE_CACHE_TTL; otherwise this view goes upstream with its token
 * and the answer refreshes the cache. A token the provider revoked thus loses
 * the page within PAGE_CACHE_TTL and one view, however warm others keep it.
 */
export async function readPage(
  ctx: AppContext,
  req: Request,
  pageId: string,
  token: string,
): Promise<[PageDetails, FeedResponse]> {
  return unwrap(await readPageSettled(ctx, req, pageId, token));
}

/**
 * readPage's two reads, each as it ended: a view that can show the details without the feed (a declined
 * permission) uses the details already read instead of asking again.
 */
export async function readPageSettled(
  ctx: AppContext,
  req: Request,
  pageId: string,
  token: string,
): Promise<Settled<PageDetails, FeedResponse>> {
  const gate = gateOf(ctx, req);
  const details = () => ctx.graph.pageDetails(token, pageId, gate);
  const feed = () => ctx.graph.feed(token, pageId, {}, gate);
  const cache = ctx.pageCache;
  if (!cache.enabled) return settle(details(), feed());
  const share = await shareKey(ctx, req, pageId);
  if (share === undefined) return settle(details(), feed());
  const now = ctx.now();
  const page = connectedPage(ctx, req, pageId);
  // Subscribed to webhooks: a change would have dropped the answer, so it may be served stale while it refreshes.
  const options = { live: page?.live === true };
  if (page?.tokenConfirmedAt !== undefined && now - page.tokenConfirmedAt < ctx.config.pageCacheTtlSec * 1000) {
    return settle(
      cache.get(pageId, 'details', `${DETAILS_FIELDS} ${share}`, details, options),
      cache.get(pageId, 'feed', `first ${share}`, feed, options),
    );
  }
  const answers = await settle(
    cache.refresh(pageId, 'details', `${DETAILS_FIELDS} ${share}`, details, options),
    cache.refresh(pageId, 'feed', `first ${share}`, feed, options),
  );
  // Written once per PAGE_CACHE_TTL, not on every warm view; only when both reads succeeded with the token.
  if (answers[0].status === 'fulfilled' && answers[1].status === 'fulfilled') confirmToken(ctx, req, pageId, now);
  return answers;
}

/**
 * The provider refused this session a permission for the page: what the cache holds for its grant and role
 * goes, since that is all it could be served. The copies of other grants and roles stay, so a person who
 * declined a permission, viewing the page again and again, does not empty everyone else's cache; their own
 * refusals reach them within PAGE_CACHE_TTL like a revoked token's (docs/architecture.md#page-cache).
 */
export function dropOwnShare(ctx: AppContext, req: Request, pageId: string): void {
  const share = knownShareKey(ctx, req, pageId);
  // Unknown grant or role: nothing was ever cached for it.
  if (share === undefined) return;
  ctx.pageCache.dropEntry(pageId, 'details', `${DETAILS_FIELDS} ${share}`);
  ctx.pageCache.dropEntry(pageId, 'feed', `first ${share}`);
}

/** Admits this session's provider reads within its share of concurrent reads (./limits). */
export function gateOf(ctx: AppContext, req: Request): ReadGate {
  const session = req.sessionID;
  return (read) => ctx.upstream.run(session, read);
}

/** The pages the person manages, kept briefly per user token. */
export function listPages(ctx: AppContext, req: Request, userToken: string): Promise<PageList> {
  return ctx.accounts.get(userToken, () => ctx.graph.listPages(userToken, gateOf(ctx, req)));
}

/** The session's own tokens just succeeded upstream for the page (it was connected, or read). */
export function confirmToken(ctx: AppContext, req: Request, pageId: string, at: number): void {
  const page = connectedPage(ctx, req, pageId);
  if (page) page.tokenConfirmedAt = at;
}

/** Notes the person's role on a newly connected page when the picker's list of pages is still at hand. */
export function noteRole(ctx: AppContext, req: Request, pageId: string, userToken: string): void {
  const page = connectedPage(ctx, req, pageId);
  const tasks = ctx.accounts.peek(userToken)?.pages.find((p) => p.id === pageId)?.tasks;
  if (page && tasks) page.tasks = [...tasks].sort();
}

/**
 * What sessions must have in common to share a cached answer: the granted
 * permissions and the role on the page, so declining a permission or holding
 * a narrower role still hides what it guards. Undefined — share nothing —
 * when either is unknown: two sessions with unknown grants may hold anything.
 */
async function shareKey(ctx: AppContext, req: Request, pageId: string): Promise<string | undefined> {
  const scopes = ctx.keeper.current(req)?.scopes;
  if (!scopes) return undefined;
  const tasks = await roleOf(ctx, req, pageId);
  if (!tasks) return undefined;
  return shareKeyOf(scopes, tasks);
}

/** The share key from what the session already holds (no call to learn the role). */
function knownShareKey(ctx: AppContext, req: Request, pageId: string): string | undefined {
  const scopes = ctx.keeper.current(req)?.scopes;
  const tasks = connectedPage(ctx, req, pageId)?.tasks;
  return scopes && tasks ? shareKeyOf(scopes, tasks) : undefined;
}

function shareKeyOf(scopes: string[], tasks: string[]): string {
  return `${[...scopes].sort().join(',')} ${tasks.join(',')}`;
}

/** The stored role, or (once per session and page) the one /me/accounts gives. */
async function roleOf(ctx: AppContext, req: Request, pageId: string): Promise<string[] | undefined> {
  const page = connectedPage(ctx, req, pageId);
  if (!page) return undefined;
  if (page.tasks) return page.tasks;
  const userToken = ctx.keeper.userToken(req);
  if (!userToken) return undefined;
  const tasks = (await listPages(ctx, req, userToken)).pages.find((p) => p.id === pageId)?.tasks;
  if (tasks) page.tasks = [...tasks].sort();
  return page.tasks;
}

function connectedPage(ctx: AppContext, req: Request, pageId: string): ConnectedPage | undefined {
  return ctx.keeper.current(req)?.pages[pageId];
}

export type Settled<A, B> = [PromiseSettledResult<A>, PromiseSettledResult<B>];

/**
 * Both reads, concurrently, each waited for: on a failure the other is not left running. With Promise.all
 * the sibling would go on retrying after the response, and the next view would join that doomed call
 * (coalescing).
 */
function settle<A, B>(a: Promise<A>, b: Promise<B>): Promise<Settled<A, B>> {
  return Promise.allSettled([a, b]);
}

/** Both answers, or the first failure (the details' before the feed's). */
export function unwrap<A, B>([ra, rb]: Settled<A, B>): [A, B] {
  if (ra.status === 'rejected') throw ra.reason;
  if (rb.status === 'rejected') throw rb.reason;
  return [ra.value, rb.value];
}
