/**
 * Comment moderation by the Page (docs/reference.md#comment-moderation), as the provider documents it: the
 * `/{object-id}/comments` reference (publishing), the Comment reference (updating `is_hidden` and `message`,
 * deleting), the `/{object-id}/likes` reference, and the Pages API "Comments and @mentions" guide (a Page token
 * with `pages_manage_engagement`; the comment's author is the Page). Every change goes through the page activity
 * (../activity.ts), so the Graph API serves it at once and the Page's `feed` webhook tells it.
 */
import { badParam, GraphError, unsupportedGet } from '../errors';
import type { SeedComment, SeedPost } from '../seed';
import type { PageState } from '../store/data';
import { authorOf } from '../store/data';
import type { GraphCall } from './call';
import { booleanOf, ENGAGE_TASKS, MODERATE_TASKS, requirePageWrite } from './writes';

export const ENGAGEMENT_PERMISSION = 'pages_manage_engagement';

/** The provider's longest comment, in characters. */
const MAX_COMMENT_LENGTH = 8000;

export type CommentTarget =
  | { kind: 'post'; page: PageState; post: SeedPost }
  | { kind: 'comment'; page: PageState; post: SeedPost; comment: SeedComment; parent?: SeedComment };

/** `POST`/`DELETE` on a post or a comment, or one of their edges; anything else is the provider's 100/33. */
export function commentWrite(
  call: GraphCall,
  target: CommentTarget,
  edge: string | undefined,
  method: 'post' | 'delete',
): Record<string, unknown> {
  const id = target.kind === 'post' ? target.post.id : target.comment.id;
  if (edge === 'comments' && method === 'post') return reply(call, target);
  if (target.kind !== 'comment') throw unsupportedGet(edge === undefined ? id : `${id}/${edge}`, method);
  if (edge === 'likes') return like(call, target, method === 'post');
  if (edge !== undefined) throw unsupportedGet(`${id}/${edge}`, method);
  return method === 'delete' ? remove(call, target) : update(call, target);
}

/**
 * A comment by the Page on a post, or a reply to a comment. Comments are one level deep, so a reply to a reply
 * joins its thread, as on the provider's pages. Answers `{ id }`.
 */
function reply(call: GraphCall, target: CommentTarget): Record<string, unknown> {
  const { page, post } = target;
  requirePageWrite(call, page, ENGAGEMENT_PERMISSION, ENGAGE_TASKS);
  const message = messageOf(call.params);
  const thread = target.kind === 'comment' ? (target.parent ?? target.comment) : undefined;
  const { id } = call.ctx.activity.addComment({
    postId: post.id,
    message,
    byPage: true,
    ...(thread !== undefined ? { parentId: thread.id } : {}),
  });
  return { id };
}

/** `POST` / `DELETE /{comment-id}/likes`: the Page likes it, or stops; `{ success: true }` either way. */
function like(call: GraphCall, target: Extract<CommentTarget, { kind: 'comment' }>, liked: boolean) {
  requirePageWrite(call, target.page, ENGAGEMENT_PERMISSION, ENGAGE_TASKS);
  call.ctx.activity.setCommentLiked(target.page.id, target.comment.id, liked);
  return { success: true };
}

/** `POST /{comment-id}` with `is_hidden` (MODERATE; never the Page's own comment) or `message` (the Page's own). */
function update(call: GraphCall, target: Extract<CommentTarget, { kind: 'comment' }>) {
  const { page, comment } = target;
  const { is_hidden: hidden, message } = call.params;
  const byPage = authorOf(comment).id === page.id;
  if (hidden !== undefined) {
    requirePageWrite(call, page, ENGAGEMENT_PERMISSION, MODERATE_TASKS);
    const value = booleanOf('is_hidden', hidden);
    if (byPage) throw new GraphError({ code: 100, message: '(#100) A Page cannot hide its own comment' });
    call.ctx.activity.setCommentHidden(page.id, comment.id, value);
    return { success: true };
  }
  if (message !== undefined) {
    requirePageWrite(call, page, ENGAGEMENT_PERMISSION, ENGAGE_TASKS);
    // Only its author edits a comment: for the Page, its own.
    if (!byPage) throw unsupportedGet(comment.id, 'post');
    call.ctx.activity.editComment(page.id, comment.id, messageOf(call.params));
    return { success: true };
  }
  throw badParam('The parameter is_hidden or message is required');
}

/** `DELETE /{comment-id}`: any comment with MODERATE, the Page's own with a task that acts as the Page. */
function remove(call: GraphCall, target: Extract<CommentTarget, { kind: 'comment' }>) {
  const { page, comment } = target;
  const byPage = authorOf(comment).id === page.id;
  requirePageWrite(call, page, ENGAGEMENT_PERMISSION, byPage ? ENGAGE_TASKS : MODERATE_TASKS);
  call.ctx.activity.removeComment(page.id, comment.id);
  return { success: true };
}

function messageOf(params: Record<string, string>): string {
  const message = params.message ?? '';
  if (message.trim() === '') throw badParam('Missing message or attachment');
  if (message.length > MAX_COMMENT_LENGTH)
    throw badParam(`Param message must be at most ${MAX_COMMENT_LENGTH} characters long`);
  return message;
}
