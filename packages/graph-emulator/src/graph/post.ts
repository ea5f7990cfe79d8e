/**
 * The Post node (Post reference) as the feed and `/<post_id>` answer it:
 * `full_picture`, `permalink_url`, `attachments` (photo, shared link, album
 * with `subattachments`), `shares {count}`, and the `reactions` and
 * `comments` edges with `.summary()` and `.limit()` (Object Reactions
 * reference: `reactions.summary(total_count)`).
 */
import type { SeedAttachment, SeedPost } from '../seed';
import type { Context } from '../context';
import type { PageState } from '../store/data';
import type { GraphCall } from './call';
import { COMMENT, commentsGuard, commentsValue } from './comments';
import { badParam } from '../errors';
import { parseFields, REACTION_TYPES, type FieldRequest, type ReactionType } from './fields';
import { project, SCALAR, scalars, validate, type EdgeValue, type ObjectType } from './select';

const IMAGE = scalars('Image', ['height', 'src', 'width']);
const MEDIA: ObjectType = {
  name: 'StoryAttachmentMedia',
  fields: { image: { kind: 'object', type: IMAGE }, source: SCALAR },
};
const TARGET = scalars('StoryAttachmentTarget', ['id', 'url']);

const ATTACHMENT_FIELDS: Record<string, ObjectType['fields'][string]> = {
  description: SCALAR,
  media: { kind: 'object', type: MEDIA },
  media_type: SCALAR,
  target: { kind: 'object', type: TARGET },
  title: SCALAR,
  type: SCALAR,
  url: SCALAR,
};
const ATTACHMENT: ObjectType = { name: 'StoryAttachment', fields: ATTACHMENT_FIELDS };
// An attachment's subattachments are attachments again.
ATTACHMENT_FIELDS.subattachments = { kind: 'edge', type: ATTACHMENT, defaultLimit: 100, paged: false };

const REACTION = scalars('Reaction', ['id', 'name', 'type']);

export const POST: ObjectType = {
  name: 'Post',
  fields: {
    id: SCALAR,
    created_time: SCALAR,
    // Who posted: on a Page's own posts, the Page.
    from: { kind: 'object', type: scalars('Profile', ['id', 'name']) },
    message: SCALAR,
    story: SCALAR,
    full_picture: SCALAR,
    permalink_url: SCALAR,
    attachments: { kind: 'edge', type: ATTACHMENT, defaultLimit: 100, paged: false },
    shares: { kind: 'object', type: scalars('Shares', ['count']) },
    reactions: { kind: 'edge', type: REACTION, defaultLimit: 25, paged: true },
    comments: { kind: 'edge', type: COMMENT, defaultLimit: 25, paged: true, guard: commentsGuard },
    // Publishing (docs/reference.md#publishing): false until a scheduled or unpublished post goes live.
    is_published: SCALAR,
    scheduled_publish_time: SCALAR,
  },
};

export const POST_DEFAULTS = ['created_time', 'message', 'story'];

/**
 * Seeded image paths become signed, expiring CDN URLs on the emulator's
 * configured origin (never the Host header): docs/specification.md#image-urls.
 */
export function mediaUrl(ctx: Context, path: string, expired = false): string {
  return `${ctx.publicUrl}${ctx.media.sign(path, ctx.now(), expired)}`;
}

/** Everything a post can answer; `project` then keeps what was asked for. */
export function postValue(call: GraphCall, page: PageState, post: SeedPost): Record<string, unknown> {
  const [pageId, number] = post.id.split('_');
  const value: Record<string, unknown> = {
    id: post.id,
    created_time: post.created_time,
    from: { id: page.id, name: page.fields.get('name') },
    message: post.message,
    story: post.story,
    permalink_url: `https://www.facebook.com/${pageId}/posts/${number}`,
    shares: post.shares === undefined ? undefined : { ...post.shares },
    reactions: reactionsOf(post),
    comments: commentsValue(call, page, post, post.comments ?? [], `${post.id}.comments`),
    is_published: page.feed.includes(post),
    scheduled_publish_time: post.scheduled_publish_time,
  };
  const expired = post.imageExpired === true;
  if (post.full_picture !== undefined) value.full_picture = mediaUrl(call.ctx, post.full_picture, expired);
  if (post.attachments !== undefined)
    value.attachments = attachmentsEdge(call, post.attachments, `${post.id}.a`, expired);
  return value;
}

function attachmentsEdge(call: GraphCall, list: readonly SeedAttachment[], scope: string, expired: boolean): EdgeValue {
  return {
    total: list.length,
    scope,
    summary: { total_count: list.length },
    slice: (n) => list.slice(0, n).map((a, i) => attachmentValue(call, a, `${scope}.${i}`, expired)),
  };
}

function attachmentValue(call: GraphCall, a: SeedAttachment, scope: string, expired: boolean): Record<string, unknown> {
  return {
    type: a.type,
    title: a.title,
    description: a.description,
    url: a.url,
    media_type: a.type === 'share' ? 'link' : a.type,
    media:
      a.media === undefined
        ? undefined
        : {
            image: { ...a.media.image, src: mediaUrl(call.ctx, a.media.image.src, expired) },
            // A video's file, on the same CDN as its poster (StoryAttachmentMedia `source`).
            ...(a.media.source !== undefined ? { source: mediaUrl(call.ctx, a.media.source, expired) } : {}),
          },
    target: a.target === undefined ? undefined : { ...a.target },
    subattachments:
      a.subattachments === undefined ? undefined : attachmentsEdge(call, a.subattachments, scope, expired),
  };
}

/**
 * `GET /{post-id}/reactions` (Object Reactions reference): `type` keeps one kind, `summary=total_count` adds the
 * count, `limit` how many people (0: the count alone). For any app: the documented way to read a count per kind
 * without field aliases (./legacy.ts).
 */
export function reactionsEdge(call: GraphCall, post: SeedPost): unknown {
  const { type, summary, limit, fields } = call.params;
  if (type !== undefined && !(REACTION_TYPES as readonly string[]).includes(type))
    throw badParam(`Param type must be one of {${REACTION_TYPES.join(', ')}}`);
  if (limit !== undefined && !/^\d{1,6}$/.test(limit)) throw badParam('Param limit must be a non-negative integer');
  const req: FieldRequest = {
    name: 'reactions',
    ...(type !== undefined ? { reactionType: type as ReactionType } : {}),
    ...(limit !== undefined ? { limit: Number(limit) } : {}),
    ...(summary === 'total_count' || summary === 'true' || summary === '1'
      ? { summary: summary === 'total_count' ? 'total_count' : 'true' }
      : {}),
    ...(fields !== undefined ? { fields: parseFields(fields, []) } : {}),
  };
  validate([req], POST);
  return project(call, { reactions: reactionsOf(post) }, [req], POST).reactions;
}

/**
 * Reacting people are made up, one per counted reaction, in a fixed order. `.type(LIKE)` keeps one kind
 * (Object Reactions reference, `type`); with `.as()` one call reads each kind's count.
 */
function reactionsOf(post: SeedPost, only?: ReactionType): EdgeValue {
  const counts = Object.entries(post.reactions ?? {}).filter(
    ([type, n]) => n > 0 && (only === undefined || type.toUpperCase() === only),
  );
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  return {
    total,
    scope: `${post.id}.reactions`,
    summary: { total_count: total, viewer_reaction: 'NONE' },
    slice: (limit) => {
      const out: Record<string, unknown>[] = [];
      let person = 0;
      for (const [type, n] of counts) {
        for (let i = 0; i < n && out.length < limit; i++, person++) {
          out.push({ id: String(100000000100000 + person), name: `Reader ${person + 1}`, type: type.toUpperCase() });
        }
      }
      return out;
    },
    narrow: (req) => (req.reactionType === undefined ? reactionsOf(post, only) : reactionsOf(post, req.reactionType)),
  };
}
