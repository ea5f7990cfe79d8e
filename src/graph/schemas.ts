import { z } from 'zod';

/**
 * The shapes we accept from the provider. Everything it sends is untrusted:
 * required parts must be there with the right type; an optional field of the
 * wrong type is dropped (`.catch(undefined)`) rather than failing the page.
 */

const opt = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const idString = z.string().regex(/^\d{1,32}$/);
const text = z.string().max(100_000);

export const graphErrorSchema = z.object({
  error: z.object({
    message: z.string().max(4000).catch('The provider returned an error.'),
    type: z.string().max(200).catch('Unknown'),
    code: z.number().int(),
    error_subcode: opt(z.number().int()),
    fbtrace_id: opt(z.string().max(200)),
    error_user_title: opt(z.string().max(200)),
    error_user_msg: opt(z.string().max(4000)),
  }),
});
/** The `error` object as the provider sends it; src/graph/errors.ts keeps it as a GraphErrorBody. */
export type GraphErrorJson = z.infer<typeof graphErrorSchema>['error'];

/**
 * Cursors are opaque and can be long: taken as they come, up to 2 KB of URL-safe characters, never decoded
 * (docs/provider-interface.md#feed-paging).
 */
export const MAX_CURSOR = 2048;
export const cursorSchema = z.string().regex(/^[A-Za-z0-9_=\-+/.%]{1,2048}$/);

/**
 * `paging.previous`: a full provider URL with the token in it (`access_token=`). Only that it is there is kept —
 * `true` — and the `before` cursor says where (docs/provider-interface.md#paging).
 */
const moreMarker = opt(z.string().transform((): true => true));

/**
 * What the app takes from a provider paging link (`paging.next`): where it points and its `after` cursor,
 * nothing else. The URL itself carries the token (`access_token=`) and is dropped here, as it is parsed, so no
 * answer the app holds, caches, logs or renders has it; src/graph/paging.ts decides whether to follow it
 * (docs/provider-interface.md#paging).
 */
export interface PagingLink {
  origin: string;
  path: string;
  after?: string | undefined;
}

const UNUSABLE_LINK: PagingLink = { origin: '', path: '' };

function pagingLinkOf(url: string): PagingLink {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return UNUSABLE_LINK;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return UNUSABLE_LINK;
  const after = parsed.searchParams.getAll('after');
  const cursor = after.length === 1 && cursorSchema.safeParse(after[0]).success ? after[0] : undefined;
  return { origin: parsed.origin, path: parsed.pathname, ...(cursor !== undefined ? { after: cursor } : {}) };
}

/** `paging.next` of a list: the provider's URL, reduced to a PagingLink as it is parsed. */
const nextLink = opt(z.string().max(16_384).transform(pagingLinkOf));

export const tokenSchema = z.object({
  access_token: z.string().min(1).max(4096),
  token_type: opt(z.string().max(40)),
  expires_in: opt(z.number().int().nonnegative()),
  /** OIDC logins only; verified in src/auth/id-token.ts. */
  id_token: opt(z.string().min(1).max(16_384)),
});
export type TokenResponse = z.infer<typeof tokenSchema>;

export const pageTokenSchema = z.object({
  id: idString,
  access_token: opt(z.string().min(1).max(4096)),
});

/** An image as the provider describes it; a URL that is not a string drops the image, not the page. */
const imageSchema = z.object({
  url: z.string().max(4000),
  width: opt(z.number().int().positive().max(10_000)),
  height: opt(z.number().int().positive().max(10_000)),
});

export const accountsSchema = z.object({
  paging: opt(
    z.object({
      cursors: opt(z.object({ after: opt(cursorSchema) })),
      next: nextLink,
    }),
  ),
  data: z
    .array(
      z.object({
        id: idString,
        name: z.string().max(1000).catch('(unnamed page)'),
        category: opt(z.string().max(200)),
        tasks: opt(z.array(z.string().max(100)).max(50)),
        followers_count: opt(z.number().int().nonnegative()),
        picture: opt(z.object({ data: imageSchema })),
      }),
    )
    .max(1000),
});
export type PageSummary = z.infer<typeof accountsSchema>['data'][number];
/**
 * The `fields` of `/me/accounts`: what the picker shows of each Page, its picture (the 100×100 one,
 * `.type(normal)`) and followers expanded in the same call (docs/provider-interface.md#managed-pages).
 */
export const ACCOUNT_FIELDS_PARAM = 'id,name,category,tasks,followers_count,picture.type(normal){url,width,height}';
/** A listed Page; `portfolio` names the business portfolio it was reached through, when not through `/me/accounts`. */
export type ListedPage = PageSummary & { portfolio?: string | undefined };
/** The person's pages, and whether the list was cut at the bound of calls (docs/provider-interface.md#managed-pages). */
export interface PageList {
  pages: ListedPage[];
  cut: boolean;
  /**
   * The portfolios' Pages: `listed` (in `pages`), `refused` (the provider refused `business_management`), or
   * absent when not asked for (docs/provider-interface.md#portfolio-pages).
   */
  portfolios?: 'listed' | 'refused';
}

/** One page of an edge the way the provider pages every edge: `data`, and `paging` while there is more. */
const edgeOf = <T extends z.ZodType>(item: T) =>
  z.object({
    paging: opt(z.object({ cursors: opt(z.object({ after: opt(cursorSchema) })), next: nextLink })),
    data: z.array(item).max(1000),
  });

/** `/me/businesses?fields=id,name`: the person's business portfolios. */
export const businessesSchema = edgeOf(z.object({ id: idString, name: z.string().max(1000).catch('') }));

/** `/<business_id>/owned_pages` and `/client_pages` with `fields=id,name,category`: plain Page nodes, no `tasks`. */
export const portfolioPagesSchema = edgeOf(
  z.object({ id: idString, name: z.string().max(1000).catch('(unnamed page)'), category: opt(z.string().max(200)) }),
);

/** `POST /{page-id}/subscribed_apps`: the reference shows `"success": "true"`, a string; a boolean is accepted too. */
export const subscribeSchema = z.object({
  success: z.union([z.literal(true), z.literal('true')]),
});

/** `/me?fields=id,name`: who signed in (docs/provider-interface.md#me). The id is app-scoped, digits only. */
export const meSchema = z.object({
  id: idString,
  name: z.string().max(1000).catch(''),
});
export type Me = z.infer<typeof meSchema>;

export const permissionsSchema = z.object({
  data: z.array(z.object({ permission: z.string().max(200), status: z.string().max(40) })).max(500),
});

export const locationSchema = z.object({
  street: opt(text),
  city: opt(text),
  state: opt(text),
  zip: opt(text),
  country: opt(text),
  latitude: opt(z.number()),
  longitude: opt(z.number()),
});

const flag = opt(z.union([z.number(), z.boolean()]).transform((v) => v === true || v === 1));

export const pageDetailsSchema = z.object({
  id: idString,
  name: opt(text),
  category: opt(z.string().max(200)),
  link: opt(z.string().max(2000)),
  followers_count: opt(z.number().int().nonnegative()),
  about: opt(text),
  attire: opt(text),
  bio: opt(text),
  location: opt(locationSchema),
  parking: opt(z.object({ lot: flag, street: flag, valet: flag })),
  hours: opt(z.record(z.string().max(40), z.string().max(40))),
  emails: opt(z.array(z.string().max(320)).max(50)),
  website: opt(z.string().max(2000)),
  // ProfilePictureSource, wrapped in `data` (Page reference: `picture`).
  picture: opt(z.object({ data: imageSchema })),
  // CoverPhoto: `source` is the image URL.
  cover: opt(z.object({ source: z.string().max(4000) })),
});
export type PageDetails = z.infer<typeof pageDetailsSchema>;
export type PageLocation = z.infer<typeof locationSchema>;

/**
 * `media` of an attachment (StoryAttachmentMedia): `image`, the one place the provider gives an image's size,
 * and a video's file, `source`.
 */
const mediaSchema = z.object({
  image: z.object({
    src: z.string().max(4000),
    width: opt(z.number().int().positive().max(10_000)),
    height: opt(z.number().int().positive().max(10_000)),
  }),
  source: opt(z.string().max(4000)),
});

const attachmentSchema = z.object({
  type: opt(z.string().max(100)),
  title: opt(text),
  url: opt(z.string().max(4000)),
  media: opt(mediaSchema),
  // An album's photos: the feed counts them and shows the first, the post page shows each.
  subattachments: opt(
    z.object({
      data: z.array(z.object({ type: opt(z.string().max(100)), title: opt(text), media: opt(mediaSchema) })).max(1000),
    }),
  ),
});

/** `.summary(total_count)` of an edge asked for with `.limit(0)`: only the count is read. */
const countSummary = opt(z.object({ summary: z.object({ total_count: z.number().int().nonnegative() }) }));

const postFields = {
  id: z.string().regex(/^[\d_]{1,80}$/),
  created_time: z.string().max(40),
  message: opt(text),
  story: opt(text),
  full_picture: opt(z.string().max(4000)),
  permalink_url: opt(z.string().max(2000)),
  // Each attachment parsed on its own: a malformed one is dropped, the others stay.
  attachments: opt(z.object({ data: z.array(attachmentSchema.optional().catch(undefined)).max(100) })),
  shares: opt(z.object({ count: z.number().int().nonnegative() })),
  reactions: countSummary,
  comments: countSummary,
};

export const feedSchema = z.object({
  data: z.array(z.object(postFields)).max(100),
  paging: opt(
    z.object({
      cursors: opt(z.object({ before: opt(cursorSchema), after: opt(cursorSchema) })),
      next: nextLink,
      previous: moreMarker,
    }),
  ),
});

/**
 * A feed page as the graph client returns it and the page caches keep it: `next` checked and kept as `true`,
 * with the cursor it gave in `cursors.after` (src/graph/paging.ts). What a cache reads back is checked with this
 * (src/cache/redis-page-cache.ts): anything but a boolean there, a URL say, is dropped.
 */
export const feedPageSchema = feedSchema.extend({
  paging: opt(
    z.object({
      cursors: opt(z.object({ before: opt(cursorSchema), after: opt(cursorSchema) })),
      next: opt(z.boolean()),
      previous: opt(z.boolean()),
    }),
  ),
});
export type FeedResponse = z.infer<typeof feedPageSchema>;
export type Post = FeedResponse['data'][number];

/** The Page fields the view reads (docs/provider-interface.md#page-fields). */
export const PAGE_FIELDS = [
  'name',
  'category',
  'link',
  'followers_count',
  'about',
  'attire',
  'bio',
  'location',
  'parking',
  'hours',
  'emails',
  'website',
  'picture',
  'cover',
] as const;

/** The items of the details call's `fields`: the 200×200 picture (`.type(large)`) for the header card. */
export const PAGE_FIELD_ITEMS: readonly string[] = PAGE_FIELDS.map((f) =>
  f === 'picture' ? 'picture.type(large)' : f,
);

/** The `fields` parameter of the details call, before any field the provider removed is left out. */
export const PAGE_FIELDS_PARAM = PAGE_FIELD_ITEMS.join(',');

/**
 * What a Page view cannot do without: a refusal of one of these is the page's error, never dropped
 * (docs/provider-interface.md#removed-fields). `id` is never asked for; the provider always sends it.
 */
export const REQUIRED_PAGE_FIELDS: readonly string[] = ['id', 'name'];

/**
 * The `fields` parameter of the feed call: exactly what a post shows (docs/provider-interface.md#feed-fields).
 * Reactions and comments are counted only (`.limit(0)`): reading comments themselves would need
 * `pages_read_user_content`. An album's photos are counted up to 100 for its "+N".
 */
export const FEED_FIELDS_PARAM = [
  'id',
  'created_time',
  'message',
  'story',
  'full_picture',
  'permalink_url',
  'attachments{type,title,url,media,subattachments.limit(100){media}}',
  'shares',
  'reactions.summary(total_count).limit(0)',
  'comments.summary(total_count).limit(0)',
].join(',');

/**
 * `/{object-id}/insights` (docs/provider-interface.md#insights): one series per metric, each value a count
 * and, for `period=day`, the day's `end_time`. A value that is not a count (a breakdown object, junk) drops
 * that point, not the page. `paging` is not kept: its URLs carry the token.
 */
export const insightsSchema = z.object({
  data: z
    .array(
      z.object({
        name: z.string().max(100),
        period: z.string().max(40),
        values: z
          .array(
            z
              .object({ value: z.number().int().nonnegative(), end_time: opt(z.string().max(40)) })
              .optional()
              .catch(undefined),
          )
          .max(400),
        title: opt(z.string().max(200)),
        description: opt(z.string().max(1000)),
      }),
    )
    .max(50),
});
export type InsightsResponse = z.infer<typeof insightsSchema>;
export type InsightSeries = InsightsResponse['data'][number];

/**
 * What the insights view keeps of its read (src/pages/insights-load.ts): the provider's series, and the
 * metrics it refused one by one, so the view says which is unavailable. Checked like a provider answer when
 * read back from the shared cache.
 */
export const insightsAnswerSchema = insightsSchema.extend({
  refused: z.array(z.string().max(100)).max(50),
});
export type InsightsAnswer = z.infer<typeof insightsAnswerSchema>;

/** A post id as the feed gives it (`<page id>_<post number>`). */
export const postIdSchema = z.string().regex(/^\d{1,32}_\d{1,32}$/);

/**
 * The reaction kinds a person can choose (Object Reactions reference, `type`), in the provider's order; each is
 * read as its own count on the post's `reactions` edge (docs/provider-interface.md#post-page).
 */
export const REACTION_KINDS = ['like', 'love', 'care', 'haha', 'wow', 'sad', 'angry'] as const;
export type ReactionKind = (typeof REACTION_KINDS)[number];

/** `GET /{post-id}`: a post as the feed has it, and who posted it. */
export const postSchema = z.object({
  ...postFields,
  id: postIdSchema,
  from: opt(z.object({ id: idString, name: opt(text) })),
});

/**
 * `GET /{page-id}/scheduled_posts` (Page Scheduled Posts reference, docs/provider-interface.md#post-management): the
 * Page's posts waiting for their time, each with its time in Unix seconds: the scheduled posts' page, and how a
 * scheduled publish with no answer in time is found by reading. A post without a time is not waiting and is
 * dropped; one page of them (the emulator's soonest first), its `paging` not kept (its URLs carry the token).
 */
export const SCHEDULED_FIELDS_PARAM = 'id,created_time,message,story,full_picture,scheduled_publish_time';
export const scheduledPostsSchema = z.object({
  data: z
    .array(
      z
        .object({
          id: postIdSchema,
          created_time: opt(z.string().max(40)),
          message: opt(text),
          story: opt(text),
          full_picture: opt(z.string().max(4000)),
          // Unix seconds, as a number or a string of digits.
          scheduled_publish_time: z.union([
            z.number().int().nonnegative(),
            z
              .string()
              .regex(/^\d{1,12}$/)
              .transform(Number),
          ]),
        })
        .optional()
        .catch(undefined),
    )
    .max(100)
    .transform((posts) => posts.filter((p) => p !== undefined)),
});
export type ScheduledPosts = z.infer<typeof scheduledPostsSchema>;
export type ScheduledPost = ScheduledPosts['data'][number];

/**
 * `GET /{post-id}` with what a post management write changes: how a write that got no answer in time is checked
 * by reading (docs/architecture.md#writes).
 */
export const POST_STATE_FIELDS_PARAM = 'id,message,is_published,scheduled_publish_time';
export const postStateSchema = z.object({
  id: postIdSchema,
  message: opt(text),
  is_published: opt(z.boolean()),
  scheduled_publish_time: opt(z.number().int().nonnegative()),
});
export type PostState = z.infer<typeof postStateSchema>;

/** `GET /{post-id}/reactions?type=…&summary=total_count&limit=0`: the count of one kind. */
export const reactionCountSchema = z.object({
  summary: z.object({ total_count: z.number().int().nonnegative() }),
});

/**
 * A post as the post page shows it and the page caches keep it: the post, and each reaction kind's count, null
 * where the provider refused or left out that kind's read (shown as unknown, never as 0).
 */
export const postDetailsSchema = postSchema.extend({
  reactionsByKind: z.record(z.enum(REACTION_KINDS), z.number().int().nonnegative().nullable()),
});
export type PostDetails = z.infer<typeof postDetailsSchema>;

/**
 * The `fields` of the post page's read of the post (docs/provider-interface.md#post-page): the feed's fields,
 * the poster (`from`) and an album's photos with their titles. No field aliases: a new app may not use them.
 */
export const POST_FIELDS_PARAM = [
  'id',
  'created_time',
  'from',
  'message',
  'story',
  'full_picture',
  'permalink_url',
  'attachments{type,title,url,media,subattachments.limit(100){type,title,media}}',
  'shares',
  'reactions.summary(total_count).limit(0)',
  'comments.summary(total_count).limit(0)',
].join(',');

/**
 * A synchronous batch's answer (docs/provider-interface.md#batch-requests): one entry per operation, in order,
 * its `body` a JSON string checked like a call's own answer; null for one the provider did not complete.
 */
export const batchSchema = z
  .array(z.object({ code: z.number().int(), body: z.string().max(2 * 1024 * 1024) }).nullable())
  .max(50);
export type BatchAnswer = z.infer<typeof batchSchema>;

/** Comment ids are `{post number}_{comment number}` (Comment reference). */
export const commentIdSchema = z.string().regex(/^\d{1,32}_\d{1,32}$/);

export const commentSchema = z.object({
  id: commentIdSchema,
  created_time: z.string().max(40),
  message: opt(text),
  // Given only with the Page's token; a Page's own comment names the Page (docs/provider-interface.md#comments).
  from: opt(z.object({ id: idString, name: z.string().max(1000).catch('') })),
  like_count: opt(z.number().int().nonnegative()),
  comment_count: opt(z.number().int().nonnegative()),
  // What the Page may do with it (Comment reference), read only when the app asks for pages_manage_engagement
  // (MODERATION_FIELDS_PARAM): absent means not offered.
  can_hide: opt(z.boolean()),
  can_remove: opt(z.boolean()),
  can_like: opt(z.boolean()),
  can_comment: opt(z.boolean()),
  can_reply_privately: opt(z.boolean()),
  is_hidden: opt(z.boolean()),
  /** Whether the Page (whose token read it) likes it. */
  user_likes: opt(z.boolean()),
});
export type Comment = z.infer<typeof commentSchema>;

/** `GET /{post-id}/comments` and `/{comment-id}/comments`: one page of comments; a malformed one is dropped. */
export const commentsSchema = z.object({
  data: z
    .array(commentSchema.optional().catch(undefined))
    .max(100)
    .transform((list) => list.filter((c): c is Comment => c !== undefined)),
  paging: opt(z.object({ next: nextLink })),
  summary: opt(z.object({ total_count: opt(z.number().int().nonnegative()) })),
});

/**
 * A page of comments as the client gives it and the cache keeps it: the comments, and the `after` cursor of
 * the next page only when the provider's `next` says there is one (src/graph/paging.ts) — never the link.
 */
export const commentsPageSchema = z.object({
  data: z.array(commentSchema).max(100),
  after: opt(cursorSchema),
  summary: opt(z.object({ total_count: opt(z.number().int().nonnegative()) })),
});
export type CommentsPage = z.infer<typeof commentsPageSchema>;

/** The fields of each comment the post page shows. */
export const COMMENT_FIELDS_PARAM = 'id,created_time,from,message,like_count,comment_count';

/**
 * The fields that say what the Page may do with each comment (Comment reference: `can_hide`, `can_remove`,
 * `can_like`, `can_comment`, `can_reply_privately`, `is_hidden`, `user_likes`), asked for beside
 * COMMENT_FIELDS_PARAM when the app asks for pages_manage_engagement (docs/provider-interface.md#comment-actions).
 */
export const MODERATION_FIELDS_PARAM =
  'can_hide,can_remove,can_like,can_comment,can_reply_privately,is_hidden,user_likes';

/** A write's answer: `{success: true}` (like, hide, delete) or the new object's id (a reply). */
export const writeSuccessSchema = z.object({
  success: z.union([z.literal(true), z.literal('true')]),
});
export const createdSchema = z.object({ id: commentIdSchema });

/**
 * A post the Page published with `POST /{page-id}/feed`, answered with the fields asked for on the write
 * (PUBLISHED_FIELDS_PARAM: the Pages API Posts guide's read-after-write): whether it is in the feed now, and
 * when it will be when it is scheduled (Unix seconds) — the provider's own reading of the time, said back.
 */
export const publishedSchema = z.object({
  id: postIdSchema,
  is_published: opt(z.boolean()),
  scheduled_publish_time: opt(
    z.union([
      z.number().int().nonnegative(),
      z
        .string()
        .regex(/^\d{1,12}$/)
        .transform(Number),
    ]),
  ),
});
export type Published = z.infer<typeof publishedSchema>;

/** The fields asked for on the publishing write itself: what the composer says back, without a read after it. */
export const PUBLISHED_FIELDS_PARAM = 'id,is_published,scheduled_publish_time';

/** A photo post (`POST /{page-id}/photos`, the Page Photos reference): the photo's id and the post's. */
export const photoPublishedSchema = z.object({ id: z.string().regex(/^\d{1,32}$/), post_id: postIdSchema });
