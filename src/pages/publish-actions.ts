import type { AppContext } from '../context';
import { WriteUnsendableError } from '../errors';
import { GraphApiError } from '../graph/errors';
import { PUBLISH_SCOPE, PUBLISH_TASKS } from '../graph/provider';
import { writtenKey } from '../writes/keys';
import type { WriteAction, Writer } from '../writes/path';
import { providerTime } from './view-text';

/**
 * Publishing as the Page (docs/architecture.md#publishing), a WriteAction of the one write path
 * (src/writes/path.ts): a text, a link or a photo, now or at a time within the provider's window. The calls are
 * the Pages API Posts guide's (https://developers.facebook.com/docs/pages-api/posts: `POST /{page-id}/feed`,
 * `published=false` with `scheduled_publish_time`) and the Page Photos reference's (`POST /{page-id}/photos`,
 * multipart `source`); both need `pages_manage_posts` and a task that creates content, `CREATE_CONTENT` or
 * `MANAGE` (Pages API Getting Started: tasks).
 */

/** What the composer asks, checked (./publish-routes.ts): the text as typed, at most one of a link or a photo. */
export interface PublishInput {
  /** The Page the route names: the post is made there and nowhere else. */
  pageId: string;
  message: string;
  link?: string;
  /** The picture's bytes and the type its first bytes show (./photo-check.ts). */
  photo?: { data: Buffer; type: string };
  /** When it goes live (epoch ms), within the window (./schedule-time.ts); now when absent. */
  scheduledAt?: number;
  /** The form checks a photo post sent before with this key: it was a photo, which is not sent again. */
  photoSent?: boolean;
}

/** How far back a post found by reading may have been made before its write was sent (clocks differ). */
const CLOCK_SKEW_MS = 5 * 60_000;

/** Posts of the feed's first page looked through for a publish that got no answer in time. */
const LOOK_BACK_POSTS = 10;

const sameText = (a: string | undefined, b: string) => (a ?? '').trim() === b.trim();

export const PUBLISH: WriteAction<PublishInput> = {
  name: 'publish',
  tasks: PUBLISH_TASKS,
  permission: PUBLISH_SCOPE,
  // One form, one post, whatever it is sent again with (now or later, another text): the form's key tells one
  // publish from another, never its text.
  intent: () => 'publish',
  belongs: (pageId, input) => input.pageId === pageId,
  async send(ctx, writer, token, input) {
    const answer = await ctx.graph
      .publishPost(token, writer.pageId, {
        message: input.message,
        ...(input.link !== undefined ? { link: input.link } : {}),
        ...(input.photo !== undefined ? { photo: input.photo } : {}),
        ...(input.scheduledAt !== undefined ? { scheduledAt: input.scheduledAt } : {}),
      })
      .catch((err: unknown) => {
        // An invalid parameter (100; 324 for a picture) is the post as the person made it, not an object gone:
        // said as such, beside the kept text.
        if (err instanceof GraphApiError && (err.code === 'graph_invalid' || err.graph.code === 324))
          throw new WriteUnsendableError({ key: 'publish.refused.provider' });
        throw err;
      });
    // The write's own answer says how the provider took it (read-after-write): a time other than ours is logged.
    const asked = input.scheduledAt === undefined ? undefined : Math.floor(input.scheduledAt / 1000);
    if (answer.scheduled_publish_time !== undefined && answer.scheduled_publish_time !== asked)
      ctx.logger.warn({ pageId: writer.pageId, postId: answer.id }, 'publish: the provider took another time');
    return { objectId: answer.id };
  },
  /**
   * The post looked for by reading: a scheduled one among the scheduled posts, at the very time asked; one
   * published now among the newest of the feed, with this text, made since it was sent.
   */
  async happened(ctx, writer, token, input, since) {
    if (input.scheduledAt !== undefined) {
      const at = Math.floor(input.scheduledAt / 1000);
      const { data } = await ctx.graph.scheduledPosts(token, writer.pageId);
      const found = data.find((p) => p.scheduled_publish_time === at && sameText(p.message, input.message));
      return found ? { objectId: found.id } : undefined;
    }
    const { data } = await ctx.graph.feed(token, writer.pageId, { limit: LOOK_BACK_POSTS });
    const found = data.find(
      (p) =>
        sameText(p.message, input.message) &&
        ((input.photo === undefined && input.photoSent !== true) || p.full_picture !== undefined) &&
        providerTime(p.created_time) >= since - CLOCK_SKEW_MS,
    );
    return found ? { objectId: found.id } : undefined;
  },
  applied: (ctx, writer, input, written) => published(ctx, writer, input, written.objectId),
};

/**
 * Read after write: a post published now is first in the feed, so the cached first page is dropped (the next
 * view, this person's first, reads it once) and open pages are told of it, naming it so a tab that shows it
 * already tells nothing; the provider's `feed` webhook for it then tells them nothing new (src/webhooks). A
 * scheduled post changes no feed until its time, when the provider's webhook tells of it; it changes the cached
 * scheduled posts (./scheduled.ts), which are dropped so the page view's count and the list show it.
 */
function published(ctx: AppContext, writer: Writer, input: PublishInput, postId: string): void {
  if (input.scheduledAt !== undefined) {
    ctx.pageCache.dropPart(writer.pageId, 'scheduled');
    return;
  }
  ctx.pageCache.dropPart(writer.pageId, 'feed');
  void ctx.writeKeys.record(writtenKey(postId), { pageId: writer.pageId }).catch(() => undefined);
  ctx.events.publish(writer.pageId, { kind: 'new-posts', count: 1, postId });
}
