import type { AppContext } from '../context';
import type { CachedPart } from '../cache/page-cache';
import { GraphApiError } from '../graph/errors';
import { PAGE_FIELDS_PARAM, type PageList, type PageSummary } from '../graph/schemas';
import type { PageAccess, PageChanges, UserAccess } from '../session/access';
import { withinDeadline } from '../deadline';
import { late } from './deadline';
import { admitReads } from './fairness';
import { withPortfolioPages } from './portfolios';

/**
 * The cache policy of a Page's reads (docs/architecture.md#page-cache): who may share an answer (the same grant
 * and role: {@link shareKey}), how fresh a session's claim to it must be (its own token proved upstream within
 * PAGE_CACHE_TTL), and what a refusal drops. The loads (./load.ts, ./load-post.ts, ./insights-load.ts) read
 * through {@link readThroughCache} and nothing else touches the shared cache's keys.
 */

/** The variant the page view's details are kept under: the fields it asks for. */
export const DETAILS_FIELDS = PAGE_FIELDS_PARAM;

/** One read of a part the cache keeps: `variant` names it within the part (fields, post), without the share. */
export interface CachedRead<T> {
  part: CachedPart;
  variant: string;
  load: () => Promise<T>;
  /** An extra of the view: past this many ms it settles as a LateError (./deadline.ts) and the others go on. */
  deadlineMs?: number;
}

type Answers<T extends readonly unknown[]> = { -readonly [K in keyof T]: PromiseSettledResult<T[K]> };

/**
 * Reads through the cache shared between sessions, concurrently, each as it ended. The cache serves a session
 * only while its own token succeeded upstream for the page within PAGE_CACHE_TTL; otherwise the reads go
 * upstream with its token and refresh the cache, and when all succeeded the confirmation goes into `changes`.
 * Sessions share an answer only with the same grant and role (`shareKey`).
 */
export async function readThroughCache<T extends readonly unknown[]>(
  ctx: AppContext,
  access: PageAccess,
  reads: { readonly [K in keyof T]: CachedRead<T[K]> },
): Promise<{ answers: Answers<T>; changes: PageChanges }> {
  const cache = ctx.pageCache;
  const timed = (read: CachedRead<unknown>, answer: Promise<unknown>) =>
    read.deadlineMs === undefined ? answer : withinDeadline(answer, read.deadlineMs, late);
  const all = (run: (read: CachedRead<unknown>) => Promise<unknown>) =>
    Promise.allSettled((reads as readonly CachedRead<unknown>[]).map((r) => timed(r, run(r)))) as Promise<Answers<T>>;
  if (!cache.enabled) return { answers: await all((r) => r.load()), changes: {} };
  const changes: PageChanges = {};
  const share = await shareKey(ctx, access, changes);
  if (share === undefined) return { answers: await all((r) => r.load()), changes };
  const { pageId } = access;
  const now = ctx.now();
  // Subscribed to webhooks: a change would have dropped the answer, so it may be served stale while it refreshes.
  // What this session stores counts against its share of the cache (docs/architecture.md#bounded-share).
  // Not proved: the reads go upstream with its token and refresh the cache.
  const refresh = !tokenProvedRecently(ctx, access);
  const options = { live: access.live, session: access.sessionId, refresh };
  const answers = await all((r) => cache.get(pageId, r.part, `${r.variant} ${share}`, r.load, options));
  // Kept once per PAGE_CACHE_TTL, not on every warm view; only when every read succeeded with the token.
  if (refresh && (answers as PromiseSettledResult<unknown>[]).every((a) => a.status === 'fulfilled'))
    changes.tokenConfirmedAt = now;
  return { answers, changes };
}

/**
 * The cache may serve this session: its own token succeeded upstream for the page within PAGE_CACHE_TTL.
 * Otherwise its reads go upstream (`ReadOptions.refresh`) and their success is noted as `tokenConfirmedAt`.
 */
function tokenProvedRecently(ctx: AppContext, access: PageAccess): boolean {
  return (
    access.tokenConfirmedAt !== undefined && ctx.now() - access.tokenConfirmedAt < ctx.config.pageCacheTtlSec * 1000
  );
}

/**
 * A refused token: the page's cache. A refused permission: what this session's grant and role could be
 * served — the page's parts, and those of `reads` (a post's) when given.
 */
export function dropOnRefusal(
  ctx: AppContext,
  access: PageAccess,
  err: unknown,
  reads: readonly Pick<CachedRead<unknown>, 'part' | 'variant'>[] = [],
): void {
  if (!(err instanceof GraphApiError)) return;
  if (err.kind === 'token') ctx.pageCache.dropPage(access.pageId);
  else if (err.kind === 'permission') dropOwnShare(ctx, access, reads);
}

/**
 * The provider refused this session a permission for the page: what the cache holds for its grant and role
 * goes, since that is all it could be served. The copies of other grants and roles stay, so a person who
 * declined a permission, viewing the page again and again, does not empty everyone else's cache; their own
 * refusals reach them within PAGE_CACHE_TTL like a revoked token's (docs/architecture.md#page-cache).
 */
function dropOwnShare(
  ctx: AppContext,
  access: PageAccess,
  reads: readonly Pick<CachedRead<unknown>, 'part' | 'variant'>[],
): void {
  // Unknown grant or role: nothing was ever cached for it.
  if (!access.scopes || !access.tasks) return;
  const share = shareKeyOf(access.scopes, access.tasks);
  ctx.pageCache.dropEntry(access.pageId, 'details', `${DETAILS_FIELDS} ${share}`);
  ctx.pageCache.dropEntry(access.pageId, 'feed', `first ${share}`);
  // The Page's insights as ./insights-load.ts keys them; a post's expire by PAGE_CACHE_TTL.
  ctx.pageCache.dropEntry(access.pageId, 'insights', `page ${share}`);
  for (const read of reads) ctx.pageCache.dropEntry(access.pageId, read.part, `${read.variant} ${share}`);
}

/**
 * The pages the person manages, with their portfolios' Pages when `scopes` holds `business_management`
 * (./portfolios.ts), kept briefly per user token (a token's grant does not change).
 */
export function listPages(
  ctx: AppContext,
  who: Pick<UserAccess, 'sessionId' | 'request'>,
  userToken: string,
  scopes: readonly string[] | undefined,
): Promise<PageList> {
  const admit = admitReads(ctx, who);
  return ctx.accounts.get(userToken, async () =>
    withPortfolioPages(ctx, await ctx.graph.listPages(userToken, admit), userToken, scopes, admit),
  );
}

/** A page as the picker's list of pages, still at hand, shows it; undefined when not at hand. */
export function listedPage(
  ctx: Pick<AppContext, 'accounts'>,
  userToken: string | undefined,
  pageId: string,
): PageSummary | undefined {
  return userToken ? ctx.accounts.peek(userToken)?.pages.find((p) => p.id === pageId) : undefined;
}

/** The person's role on a page as the picker's list of pages, still at hand, says; undefined when not at hand. */
export function listedRole(
  ctx: Pick<AppContext, 'accounts'>,
  userToken: string | undefined,
  pageId: string,
): string[] | undefined {
  const tasks = listedPage(ctx, userToken, pageId)?.tasks;
  return tasks ? [...tasks].sort() : undefined;
}

/**
 * What sessions must have in common to share a cached answer: the granted permissions and the role on the
 * page, so declining a permission or holding a narrower role still hides what it guards. Undefined — share
 * nothing — when either is unknown: two sessions with unknown grants may hold anything. A role learned on
 * the way goes into `changes`.
 */
async function shareKey(ctx: AppContext, access: PageAccess, changes: PageChanges): Promise<string | undefined> {
  if (!access.scopes) return undefined;
  const tasks = await roleOf(ctx, access, changes);
  if (!tasks) return undefined;
  return shareKeyOf(access.scopes, tasks);
}

export function shareKeyOf(scopes: readonly string[], tasks: readonly string[]): string {
  return `${[...scopes].sort().join(',')} ${tasks.join(',')}`;
}

/**
 * The person's role on the page: as the session stored it while its tokens succeeded upstream within
 * PAGE_CACHE_TTL, else as `/me/accounts` says now (through the accounts cache), noted in `changes` when it
 * changed. The provider may change a role at any time; reading it again at the cache's freshness keeps what a
 * changed role is served within PAGE_CACHE_TTL of the change, as for a revoked token. Undefined — share nothing
 * — when the person no longer manages the page, or their list cannot be read: the view then asks the provider
 * with its own token, and no confirmation is noted, so the next view asks again.
 */
export async function roleOf(
  ctx: AppContext,
  access: PageAccess,
  changes: PageChanges,
): Promise<readonly string[] | undefined> {
  // A role is stored at connect with the confirmation; without one (never the case after a connect) it stays.
  const stale =
    access.tokenConfirmedAt !== undefined && ctx.now() - access.tokenConfirmedAt >= ctx.config.pageCacheTtlSec * 1000;
  if (access.tasks && (!stale || !access.userToken)) return access.tasks;
  if (!access.userToken) return undefined;
  const list = await listPages(ctx, access, access.userToken, access.scopes).catch(() => undefined);
  const listed = list?.pages.find((p) => p.id === access.pageId)?.tasks;
  if (!listed) return undefined;
  const tasks = [...listed].sort();
  if (access.tasks?.join(',') !== tasks.join(',')) changes.tasks = tasks;
  return tasks;
}

/** The session's value as it will be once `changes` are kept (a role learned during the load). */
export function withChanges(access: PageAccess, changes: PageChanges): PageAccess {
  return changes.tasks === undefined ? access : { ...access, tasks: changes.tasks };
}
