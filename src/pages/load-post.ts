import type { AppContext } from '../context';
import { AppError, NotFoundError } from '../errors';
import type { CommentsPage, PostDetails } from '../graph/schemas';
import { COMMENTS_SCOPE, ENGAGEMENT_SCOPE } from '../graph/provider';
import type { PageAccess } from '../session/access';
import { dropOnRefusal, readThroughCache, withChanges, type CachedRead } from './cache-policy';
import { admitReads } from './fairness';
import { isPermissionError, settle, staleLink } from './load';
import { GraphApiError } from '../graph/errors';
import { withinDeadline } from '../deadline';
import { late } from './deadline';
import { asksFor } from './offered';
import { loadPostViewers, type ViewersOutcome } from './insights-load';
import { isFailure, type Load } from './pipeline';

/**
 * How a post page is loaded (docs/architecture.md#post-page): the post and the first page of its comments, through
 * the cache shared between sessions with the page view's freshness and revocation rules (./cache-policy.ts), in
 * parallel; a later page of comments, or a comment's replies, upstream with the session's token (as older
 * posts are). From values only: the route reads the session and writes the changes.
 */

/** What the person asked for beyond the post: a later page of comments, or one comment's replies opened. */
export interface PostQuery {
  after?: string | undefined;
  replies?: string | undefined;
}

/**
/**
 * Comments as the post page shows them: read (with the replies opened, or `repliesMissing` when they failed or
 * were late); not read for want of the permission the person declined (or the provider refused); not asked for,
 * FB_SCOPES leaving the permission out; or `missing`: failed or late (an extra).
 */
export type CommentsRead =
  | { page: CommentsPage; replies?: { commentId: string; page: CommentsPage }; repliesMissing?: true }
  | { refusal: GraphApiError | undefined }
  | { notAsked: true }
  | { missing: true };

export interface PostOutcome {
  post: PostDetails;
  comments: CommentsRead;
}

/** The post page's outcome: the post and its comments, and its viewers (an extra of their own). */
export interface PostPageOutcome extends PostOutcome {
  viewers: ViewersOutcome | { missing: true };
}

/**
 * The post page's load: the post with its comments ({@link loadPost}) and, beside them, its viewers, the
 * insights' read: their own cache entry, nothing when not granted; an extra as the comments are, within its own
 * deadline and left out (`missing`) when late or failing. The provider refusing the cursor or comment id the link
 * brought is an old or edited link: the 400 (./load.ts `staleLink`).
 */
export async function loadPostPage(
  ctx: AppContext,
  access: PageAccess,
  token: string,
  query: PostQuery & { postId: string },
): Promise<Load<PostPageOutcome>> {
  const [{ outcome, changes }, viewers] = await Promise.all([
    loadPost(ctx, access, token, query.postId, query),
    withinDeadline(loadPostViewers(ctx, access, token, query.postId), ctx.config.postExtrasDeadlineMs, late).catch(
      (): Load<{ missing: true }> => ({ outcome: { missing: true }, changes: {} }),
    ),
  ]);
  const learned = { ...viewers.changes, ...changes };
  if (isFailure(outcome)) {
    const fromLink = query.after !== undefined || query.replies !== undefined;
    return { outcome: { error: fromLink ? staleLink(outcome.error) : outcome.error }, changes: learned };
  }
  return {
    outcome: { ...outcome, viewers: isFailure(viewers.outcome) ? { missing: true } : viewers.outcome },
    changes: learned,
  };
}

/**
 * The post, and its comments when the session was granted `pages_read_user_content` (or its grant is not known:
 * the provider then says). A refusal of the comments alone is no failure: the post shows with its count and a
 * line on what to grant. Any other failure is the page's error. An answer for another post id is the 404 page.
 */
export async function loadPost(
  ctx: AppContext,
  access: PageAccess,
  token: string,
  postId: string,
  query: PostQuery,
): Promise<Load<PostOutcome>> {
  const admit = admitReads(ctx, access);
  const postRead: CachedRead<PostDetails> = {
    part: 'post',
    variant: postId,
    load: () => ctx.graph.post(token, access.pageId, postId, admit),
  };
  // Comments and replies are extras: each within its own deadline, so that a late or failing one leaves the post.
  const deadlineMs = ctx.config.postExtrasDeadlineMs;
  // What the Page may do with each comment, read with them when the app asks for the actions' permission.
  const moderation = asksFor(ctx.config, ENGAGEMENT_SCOPE);
  const firstComments: CachedRead<CommentsPage> = {
    part: 'comments',
    variant: postId,
    load: () => ctx.graph.comments(token, access.pageId, postId, { moderation }, admit),
    deadlineMs,
  };
  const asked = asksFor(ctx.config, COMMENTS_SCOPE);
  const mayRead = asked && (access.scopes === undefined || access.scopes.includes(COMMENTS_SCOPE));
  // The first page of comments is cached with the post; a later page, or replies, are read for this view only.
  const cachedComments = mayRead && query.after === undefined;
  const reads = cachedComments ? [postRead, firstComments] : [postRead];
  const [shared, later, replies] = await Promise.all([
    cachedComments
      ? readThroughCache(ctx, access, [postRead, firstComments] as const)
      : readThroughCache(ctx, access, [postRead] as const),
    mayRead && query.after !== undefined
      ? settle(
          withinDeadline(
            ctx.graph.comments(token, access.pageId, postId, { after: query.after, moderation }, admit),
            deadlineMs,
            late,
          ),
        )
      : undefined,
    mayRead && query.replies !== undefined
      ? settle(
          withinDeadline(
            ctx.graph.comments(token, access.pageId, query.replies, { replies: true, moderation }, admit),
            deadlineMs,
            late,
          ),
        )
      : undefined,
  ]);
  const { answers, changes } = shared;
  const known = withChanges(access, changes);
  const postAnswer = answers[0];
  const commentsAnswer = answers[1];
  const commentsResult = commentsAnswer ?? later;
  const failures = [postAnswer, commentsResult, replies].flatMap((r) =>
    r?.status === 'rejected' ? [r.reason as unknown] : [],
  );
  failures.forEach((err) => dropOnRefusal(ctx, known, err, reads));
  if (postAnswer.status === 'rejected') return { outcome: { error: postAnswer.reason }, changes };
  const post = postAnswer.value;
  // The provider's post ids name their Page (the route checked the prefix); an answer for another id is not this
  // post. `from` is not checked: a visitor's post on the Page's timeline has the Page's id and the visitor as `from`.
  if (post.id !== postId) return { outcome: { error: new NotFoundError({ key: 'error.post.notThisPage' }) }, changes };
  // A token the provider no longer takes is the page's error wherever it showed; any other failure of an extra
  // leaves it out (docs/architecture.md#post-page).
  // So is the provider refusing the cursor or comment id a link brought (an old or edited link: the route's 400).
  const linkRefused = [later, replies].find((r) => r?.status === 'rejected' && isInvalidParameter(r.reason));
  const refusedToken = failures.find((err) => err instanceof AppError && err.code === 'graph_token');
  const fatal = refusedToken ?? (linkRefused?.status === 'rejected' ? (linkRefused.reason as unknown) : undefined);
  if (fatal !== undefined) return { outcome: { error: fatal }, changes };
  if (!asked) return { outcome: { post, comments: { notAsked: true } }, changes };
  if (!mayRead) return { outcome: { post, comments: { refusal: undefined } }, changes };
  if (commentsResult?.status === 'rejected' && !isPermissionError(commentsResult.reason))
    return { outcome: { post, comments: { missing: true } }, changes };
  if (commentsResult?.status !== 'fulfilled') {
    const refusal = commentsResult?.status === 'rejected' ? (commentsResult.reason as GraphApiError) : undefined;
    return { outcome: { post, comments: { refusal } }, changes };
  }
  const comments: CommentsRead = { page: commentsResult.value };
  if (replies?.status === 'fulfilled' && query.replies !== undefined)
    comments.replies = { commentId: query.replies, page: replies.value };
  else if (replies?.status === 'rejected' && !isPermissionError(replies.reason)) comments.repliesMissing = true;
  return { outcome: { post, comments }, changes };
}

/** The provider's "invalid parameter" (100): what it answers for a cursor or comment id it does not know. */
function isInvalidParameter(err: unknown): boolean {
  return err instanceof GraphApiError && err.graph.code === 100;
}
