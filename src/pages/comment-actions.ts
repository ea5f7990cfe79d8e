import type { AppContext } from '../context';
import { GraphApiError } from '../graph/errors';
import { ENGAGEMENT_SCOPE } from '../graph/provider';
import type { Comment } from '../graph/schemas';
import { writtenKey } from '../writes/keys';
import type { WriteAction, Writer, Written } from '../writes/path';
import { providerTime } from './view-text';

/**
 * The post page's actions (docs/architecture.md#comment-actions), each a WriteAction of the one write path
 * (src/writes/path.ts): reply as the Page to the post or a comment, like and unlike, hide and unhide, delete.
 * The calls are the provider's Comment and Object Comments references; what each asks of the person's role:
 *
 * - moderating (hide, unhide, delete) needs the `MODERATE` task;
 * - acting as the Page in the conversation (replying, liking) any of `CREATE_CONTENT`, `MANAGE` or `MODERATE`,
 *   the tasks the provider's Pages API Posts guide lists for commenting as the Page.
 */

export const MODERATE_TASKS: readonly string[] = ['MODERATE'];
export const ENGAGE_TASKS: readonly string[] = ['CREATE_CONTENT', 'MANAGE', 'MODERATE'];

export type CommentActionName = 'reply' | 'like' | 'unlike' | 'hide' | 'unhide' | 'delete';
export const COMMENT_ACTIONS: readonly CommentActionName[] = ['reply', 'like', 'unlike', 'hide', 'unhide', 'delete'];

/** What a form asks: the action, on which post, its object (the post or a comment of it), and a reply's text. */
export interface CommentInput {
  postId: string;
  /** The post itself (a reply to it) or a comment of the post. */
  target: string;
  message?: string;
}

/** How far back a reply found by reading may have been made before its write was sent (clocks differ). */
const CLOCK_SKEW_MS = 5 * 60_000;

/** A comment of the post: its id names the post's number (Comment reference: `{post number}_{comment number}`). */
function commentOfPost(postId: string, id: string): boolean {
  return /^\d{1,32}_\d{1,32}$/.test(id) && id.split('_')[0] === postId.split('_')[1];
}

/** The post is the Page's (its id names the Page) and the target is the post or one of its comments. */
function belongs(pageId: string, input: CommentInput, postItself: boolean): boolean {
  if (input.postId.split('_')[0] !== pageId) return false;
  return (postItself && input.target === input.postId) || commentOfPost(input.postId, input.target);
}

/**
 * What changed after a write on the post's comments: the comments of the page's posts (the cache keeps them by
 * part), and, when a comment came or went, the post's and the feed's counts too. Other tabs open on the post are
 * told (src/live); the provider's own webhook for the same change then tells them nothing new (src/webhooks).
 */
function changed(ctx: AppContext, writer: Writer, input: CommentInput, written: Written, counts: boolean): void {
  ctx.pageCache.dropPart(writer.pageId, 'comments');
  if (counts) {
    ctx.pageCache.dropPart(writer.pageId, 'post');
    ctx.pageCache.dropPart(writer.pageId, 'feed');
  }
  // A new comment's own webhook then tells the open pages nothing new (src/webhooks/routes.ts).
  if (counts) void ctx.writeKeys.record(writtenKey(written.objectId), { pageId: writer.pageId }).catch(() => undefined);
  // The page views' counts changed too when a comment came or went.
  if (counts) ctx.events.publish(writer.pageId, { kind: 'feed-changed' });
  // Naming the comment: the tab that wrote it shows it already, and tells nothing (public/app.js).
  ctx.events.publish(writer.pageId, { kind: 'new-comment', postId: input.postId, commentId: written.objectId });
}

/** The comment as the Page reads it now; undefined when the provider says it is gone (100). */
async function readComment(ctx: AppContext, writer: Writer, token: string, id: string): Promise<Comment | undefined> {
  try {
    return await ctx.graph.comment(token, writer.pageId, id);
  } catch (err) {
    if (err instanceof GraphApiError && err.graph.code === 100) return undefined;
    throw err;
  }
}

const reply: WriteAction<CommentInput> = {
  name: 'reply',
  tasks: ENGAGE_TASKS,
  permission: ENGAGEMENT_SCOPE,
  intent: (input) => `reply ${input.target}`,
  belongs: (pageId, input) => belongs(pageId, input, true),
  async send(ctx, writer, token, input) {
    const { id } = await ctx.graph.writeComment(token, writer.pageId, {
      kind: 'reply',
      parentId: input.target,
      message: input.message ?? '',
    });
    return { objectId: id ?? input.target };
  },
  // The newest comments under the target, looked through for the Page's with this very text, made since.
  async happened(ctx, writer, token, input, since) {
    const page = await ctx.graph.comments(token, writer.pageId, input.target, {});
    const text = (input.message ?? '').trim();
    const found = page.data.find(
      (c) =>
        c.from?.id === writer.pageId &&
        (c.message ?? '').trim() === text &&
        providerTime(c.created_time) >= since - CLOCK_SKEW_MS,
    );
    return found ? { objectId: found.id } : undefined;
  },
  applied: (ctx, writer, input, written) => changed(ctx, writer, input, written, true),
};

/** A write that sets one state of a comment (liked, hidden) or removes it: checked by reading that state. */
function stateAction(
  name: Exclude<CommentActionName, 'reply'>,
  tasks: readonly string[],
  isDone: (comment: Comment | undefined) => boolean,
): WriteAction<CommentInput> {
  return {
    name,
    tasks,
    permission: ENGAGEMENT_SCOPE,
    intent: (input) => `${name} ${input.target}`,
    belongs: (pageId, input) => belongs(pageId, input, false),
    async send(ctx, writer, token, input) {
      await ctx.graph.writeComment(token, writer.pageId, { kind: name, commentId: input.target });
      return { objectId: input.target };
    },
    async happened(ctx, writer, token, input) {
      const comment = await readComment(ctx, writer, token, input.target);
      return isDone(comment) ? { objectId: input.target } : undefined;
    },
    applied: (ctx, writer, input, written) => changed(ctx, writer, input, written, name === 'delete'),
  };
}

/** Every action, by the name the form sends. */
export const COMMENT_WRITES: Readonly<Record<CommentActionName, WriteAction<CommentInput>>> = {
  reply,
  like: stateAction('like', ENGAGE_TASKS, (c) => c?.user_likes === true),
  unlike: stateAction('unlike', ENGAGE_TASKS, (c) => c !== undefined && c.user_likes === false),
  hide: stateAction('hide', MODERATE_TASKS, (c) => c?.is_hidden === true),
  unhide: stateAction('unhide', MODERATE_TASKS, (c) => c !== undefined && c.is_hidden === false),
  delete: stateAction('delete', MODERATE_TASKS, (c) => c === undefined),
};
