import type { AppContext } from '../context';
import { GraphApiError } from '../graph/errors';
import type { PostChange } from '../graph/client';
import { PUBLISH_SCOPE, PUBLISH_TASKS } from '../graph/provider';
import type { PostState } from '../graph/schemas';
import { writtenKey, writtenPostKey } from '../writes/keys';
import type { WriteAction, Writer } from '../writes/path';

/**
 * The Page's own posts managed (docs/architecture.md#post-management), each a WriteAction of the one write path
 * (src/writes/path.ts): edit a post's text, delete it; publish a scheduled post now, move it, or cancel it. The
 * calls are the Pages API Posts guide's (`POST /{post-id}`, `DELETE /{post-id}`); each needs `pages_manage_posts`
 * and a task that creates content (PUBLISH_TASKS, src/graph/provider.ts), as publishing does.
 */

export type PostActionName = 'edit' | 'delete-post' | 'publish-now' | 'reschedule' | 'cancel';
export const POST_ACTIONS: readonly PostActionName[] = ['edit', 'delete-post', 'publish-now', 'reschedule', 'cancel'];

/**
 * What a form asks of a post: which post, its new text (edit) or its new time (reschedule: the instant the person's
 * wall-clock time and zone name, read and checked against the window by the route, ./schedule-time.ts).
 */
export interface PostInput {
  postId: string;
  message?: string;
  /** The new time (epoch ms). */
  at?: number;
}

/** The verb of the provider's `feed` webhook for each change (docs/provider-interface.md#webhook-deliveries). */
const WEBHOOK_VERB: Record<Exclude<PostActionName, 'publish-now'>, string> = {
  edit: 'edited',
  'delete-post': 'remove',
  reschedule: 'edited',
  cancel: 'remove',
};

/** The post as the Page reads it now; undefined when the provider says it is gone (100). */
async function readPost(
  ctx: AppContext,
  writer: Writer,
  token: string,
  postId: string,
): Promise<PostState | undefined> {
  try {
    return await ctx.graph.postState(token, writer.pageId, postId);
  } catch (err) {
    if (err instanceof GraphApiError && err.graph.code === 100) return undefined;
    throw err;
  }
}

/**
 * What changed after a write on a post: the cached feed, the post's own page and the scheduled posts; the open
 * pages are told (a published post is a new post in the feed; an edit or a deletion changes it); the provider's
 * webhook for the same change then tells them nothing new.
 */
function changed(ctx: AppContext, writer: Writer, name: PostActionName, input: PostInput): void {
  const { pageId } = writer;
  for (const part of ['feed', 'post', 'comments', 'scheduled'] as const) ctx.pageCache.dropPart(pageId, part);
  // Published now, the post is added to the feed: noted as the composer notes its posts (./publish-actions.ts).
  const key = name === 'publish-now' ? writtenKey(input.postId) : writtenPostKey(input.postId, WEBHOOK_VERB[name]);
  void ctx.writeKeys.record(key, { pageId }).catch(() => undefined);
  if (name === 'publish-now') ctx.events.publish(pageId, { kind: 'new-posts', count: 1, postId: input.postId });
  else if (name === 'edit' || name === 'delete-post') ctx.events.publish(pageId, { kind: 'feed-changed' });
  // A scheduled post moved or cancelled is in no feed: nothing open shows it.
}

/** One post action: its provider write, and how reading the post tells whether it landed. */
function postAction(
  name: PostActionName,
  write: (input: PostInput) => PostChange,
  landed: (post: PostState | undefined, input: PostInput) => boolean,
): WriteAction<PostInput> {
  return {
    name,
    tasks: PUBLISH_TASKS,
    permission: PUBLISH_SCOPE,
    // A new time is another intent; a text never names one.
    intent: (input) => [name, input.postId, input.at].filter((part) => part !== undefined).join(' '),
    // A post's id names its Page (`{page id}_{post number}`): another Page's post is refused before any call.
    belongs: (pageId, input) => input.postId.split('_')[0] === pageId,
    async send(ctx, writer, token, input) {
      await ctx.graph.writePost(token, writer.pageId, write(input));
      return { objectId: input.postId };
    },
    async happened(ctx, writer, token, input) {
      const post = await readPost(ctx, writer, token, input.postId);
      return landed(post, input) ? { objectId: input.postId } : undefined;
    },
    applied: (ctx, writer, input) => changed(ctx, writer, name, input),
  };
}

const gone = (post: PostState | undefined) => post === undefined;

/** Every post action, by the name the form sends. */
export const POST_WRITES: Readonly<Record<PostActionName, WriteAction<PostInput>>> = {
  edit: postAction(
    'edit',
    (input) => ({ kind: 'edit', postId: input.postId, message: input.message ?? '' }),
    (post, input) => post !== undefined && (post.message ?? '').trim() === (input.message ?? '').trim(),
  ),
  'delete-post': postAction('delete-post', (input) => ({ kind: 'delete', postId: input.postId }), gone),
  'publish-now': postAction(
    'publish-now',
    (input) => ({ kind: 'publish', postId: input.postId }),
    (post) => post?.is_published === true,
  ),
  reschedule: postAction(
    'reschedule',
    (input) => ({ kind: 'reschedule', postId: input.postId, at: input.at ?? 0 }),
    (post, input) => post?.scheduled_publish_time === Math.floor((input.at ?? 0) / 1000),
  ),
  cancel: postAction('cancel', (input) => ({ kind: 'delete', postId: input.postId }), gone),
};
