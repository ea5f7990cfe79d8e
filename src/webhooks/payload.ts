import { z } from 'zod';
import { PAGE_FIELDS } from '../graph/schemas';

/**
 * The parts of a webhook delivery the app reads (docs/provider-interface.md#webhook-deliveries). Everything else
 * (messages, names, links) is user content and is neither kept nor logged. Each entry and change is read on its
 * own: one that does not fit is skipped, the rest still count.
 */

const word = z.string().regex(/^[a-z_]{1,40}$/);

export const deliverySchema = z.object({
  object: z.string().max(100),
  entry: z.array(z.unknown()).max(1000),
});

export const entrySchema = z.object({
  id: z.string().regex(/^\d{1,32}$/),
  changes: z.array(z.unknown()).max(1000).optional().catch(undefined),
});

export const changeSchema = z.object({
  field: word,
  value: z.unknown().optional(),
});

export const feedValueSchema = z.object({
  item: word.optional().catch(undefined),
  verb: word.optional().catch(undefined),
  // The post a comment or reaction is on: `{page id}_{post number}`.
  post_id: z
    .string()
    .regex(/^\d{1,32}_\d{1,32}$/)
    .optional()
    .catch(undefined),
  // The comment added: `{post number}_{n}`.
  comment_id: z
    .string()
    .regex(/^\d{1,32}_\d{1,32}$/)
    .optional()
    .catch(undefined),
  // 0 on a post made to go live later (scheduled or unpublished): nothing in the feed yet.
  published: z.union([z.number(), z.boolean()]).optional().catch(undefined),
});

/** Posts whose new comments one delivery tells open pages of, at most (the rest still change the counts). */
const MAX_COMMENTED_POSTS = 20;

/** Feed items that are posts of their own (a new one shows in the feed); comments and reactions only change counts. */
export const POST_ITEMS: ReadonlySet<string> = new Set(['post', 'status', 'photo', 'video', 'share', 'link', 'event']);

/**
 * Page fields that change what the page's details show (the `feed` field changes the feed): the fields the
 * details view reads, plus `email`, the singular name a page-field webhook may use.
 */
export const DETAIL_FIELDS: ReadonlySet<string> = new Set<string>([...PAGE_FIELDS, 'email']);

/** What one delivery means for one page. */
export interface PageChange {
  pageId: string;
  /** Posts added. */
  newPosts: number;
  /** The feed changed in another way (edited, removed, comments, reactions). */
  feedChanged: boolean;
  detailsChanged: boolean;
  /** Posts of the page that gained a comment (open post pages show it). */
  commentedPosts: string[];
  /** The comments added, each with its post, when the change names it: this app's own replies are told once. */
  addedComments: { postId: string; commentId: string }[];
  /** The posts added to the feed that the change names: this app's own posts are told once. */
  addedPosts: string[];
  /** The posts edited or removed, each with its verb, when the change names it: this app's own changes are told once. */
  changedPosts: { postId: string; verb: string }[];
  /** `field:item:verb` of each change understood, for the log (no user content). */
  kinds: string[];
}

/** Reads a parsed delivery into one change per page; anything but `object: "page"` means nothing to this app. */
export function pageChanges(body: unknown): PageChange[] | undefined {
  const delivery = deliverySchema.safeParse(body);
  if (!delivery.success) return undefined;
  if (delivery.data.object !== 'page') return [];
  const byPage = new Map<string, PageChange>();
  for (const raw of delivery.data.entry) {
    const entry = entrySchema.safeParse(raw);
    if (!entry.success) continue;
    const pageId = entry.data.id;
    let page = byPage.get(pageId);
    if (!page)
      byPage.set(
        pageId,
        (page = {
          pageId,
          newPosts: 0,
          feedChanged: false,
          detailsChanged: false,
          commentedPosts: [],
          addedComments: [],
          addedPosts: [],
          changedPosts: [],
          kinds: [],
        }),
      );
    for (const rawChange of entry.data.changes ?? []) {
      const change = changeSchema.safeParse(rawChange);
      if (!change.success) continue;
      const { field } = change.data;
      if (field === 'feed') {
        const value = feedValueSchema.safeParse(change.data.value ?? {});
        const item = value.success ? value.data.item : undefined;
        const verb = value.success ? value.data.verb : undefined;
        const postId = value.success ? value.data.post_id : undefined;
        const later = value.success && (value.data.published === 0 || value.data.published === false);
        if (verb === 'add' && item !== undefined && POST_ITEMS.has(item)) {
          // A post made to go live later is in no feed yet: its going live is a change of its own.
          if (!later) page.newPosts++;
          if (!later && postId !== undefined && page.addedPosts.length < MAX_COMMENTED_POSTS)
            page.addedPosts.push(postId);
        } else page.feedChanged = true;
        // A comment on one of this page's posts: that post's open page shows it.
        if (
          item === 'comment' &&
          verb === 'add' &&
          postId?.startsWith(`${pageId}_`) &&
          !page.commentedPosts.includes(postId) &&
          page.commentedPosts.length < MAX_COMMENTED_POSTS
        )
          page.commentedPosts.push(postId);
        const commentId = value.success ? value.data.comment_id : undefined;
        if (item === 'comment' && verb === 'add' && postId !== undefined && commentId !== undefined)
          if (page.addedComments.length < MAX_COMMENTED_POSTS) page.addedComments.push({ postId, commentId });
        // A post edited or removed (an added one is told by addedPosts).
        if (item !== undefined && POST_ITEMS.has(item) && postId !== undefined && verb !== undefined && verb !== 'add')
          if (page.changedPosts.length < MAX_COMMENTED_POSTS) page.changedPosts.push({ postId, verb });
        page.kinds.push(`feed:${item ?? '?'}:${verb ?? '?'}`);
      } else if (DETAIL_FIELDS.has(field)) {
        page.detailsChanged = true;
        page.kinds.push(field);
      }
      // Any other field is not something this app shows: ignored.
    }
  }
  return [...byPage.values()];
}
