import type { AppContext } from '../context';
import { PUBLISH_SCOPE, PUBLISH_TASKS } from '../graph/provider';
import type { ScheduledPosts } from '../graph/schemas';
import type { PageAccess } from '../session/access';
import { dropOnRefusal, readThroughCache, withChanges, type CachedRead } from './cache-policy';
import { admitReads } from './fairness';
import { asksFor } from './offered';
import type { Load } from './pipeline';

/**
 * The Page's scheduled posts (docs/architecture.md#post-management): read through the page cache as the page view's
 * reads are (./cache-policy.ts), so that the page view's "N scheduled posts" and the scheduled posts' page are one
 * read between them, shared by the sessions of the same grant and role. Every post write drops it
 * (./post-actions.ts), and so does the provider's `feed` webhook (a post went live, moved or was cancelled on
 * Facebook); without webhooks it is at most PAGE_CACHE_TTL old, and a post whose time has passed is not listed.
 */

/** What the session may do with the Page's posts: the app asks for the permission, and it was granted or not. */
export type Publishing = 'not-asked' | 'not-granted' | 'no-task' | 'may';

/** Whether this session may publish on the Page: the app asks for `pages_manage_posts`, it was granted, a task allows. */
export function publishing(ctx: AppContext, access: PageAccess, tasks = access.tasks): Publishing {
  if (!asksFor(ctx.config, PUBLISH_SCOPE)) return 'not-asked';
  if (access.scopes !== undefined && !access.scopes.includes(PUBLISH_SCOPE)) return 'not-granted';
  return tasks?.some((task) => PUBLISH_TASKS.includes(task)) ? 'may' : 'no-task';
}

/** The scheduled posts as one read of the page cache. */
function scheduledRead(ctx: AppContext, access: PageAccess, token: string): CachedRead<ScheduledPosts> {
  const admit = admitReads(ctx, access);
  return { part: 'scheduled', variant: 'first', load: () => ctx.graph.scheduledPosts(token, access.pageId, admit) };
}

/** Posts still waiting at `now`: one whose time passed went live, whatever a cached answer says. */
function waiting(posts: ScheduledPosts, now: number): ScheduledPosts {
  return { data: posts.data.filter((p) => p.scheduled_publish_time * 1000 > now) };
}

/** What the scheduled posts' page shows: the posts, and what this person may do with them. */
export interface ScheduledOutcome {
  posts: ScheduledPosts;
  publishing: Publishing;
}

/** The scheduled posts' page: the list, or its failure as the page's error (a refusal drops what it hid). */
export async function loadScheduled(
  ctx: AppContext,
  access: PageAccess,
  token: string,
): Promise<Load<ScheduledOutcome>> {
  const read = scheduledRead(ctx, access, token);
  const { answers, changes } = await readThroughCache(ctx, access, [read] as const);
  const [answer] = answers;
  const known = withChanges(access, changes);
  if (answer.status === 'rejected') {
    dropOnRefusal(ctx, known, answer.reason, [read]);
    return { outcome: { error: answer.reason }, changes };
  }
  return { outcome: { posts: waiting(answer.value, ctx.now()), publishing: publishing(ctx, known) }, changes };
}

/**
 * How many posts are scheduled, for the page view's one line, when this person may publish; undefined otherwise
 * or when the read failed (the line is left out: the page view does not fail for it).
 */
export async function scheduledCount(ctx: AppContext, access: PageAccess, token: string): Promise<number | undefined> {
  if (publishing(ctx, access) !== 'may') return undefined;
  const { answers } = await readThroughCache(ctx, access, [scheduledRead(ctx, access, token)] as const);
  const [answer] = answers;
  return answer.status === 'fulfilled' ? waiting(answer.value, ctx.now()).data.length : undefined;
}
