/**
 * A page's feed (https://developers.facebook.com/docs/graph-api/reference/page/feed):
 * newest first, `limit` (default 25, max 100), `after`/`before` cursors.
 */
import type { SeedPost } from '../seed';
import type { PageState } from '../store/data';
import { edgeLinks, type GraphCall } from './call';
import { parseFields, requireKnown, withId } from './fields';
import { paginate, parsePageQuery, type Paged } from './paging';

const POST_FIELDS = ['id', 'created_time', 'message', 'story'];
const POST_DEFAULTS = ['created_time', 'message', 'story'];

/**
 * Where the feed behaves as the real one does: `previous` on the first page,
 * and the page that would start at post 50 comes back empty once, with `next`.
 */
export const FEED_QUIRKS = { previousOnFirst: true, emptyAt: 50 } as const;

export function feedEdge(call: GraphCall, page: PageState, edge: string): Paged<Record<string, unknown>> {
  const fields = withId(parseFields(call.params.fields, POST_DEFAULTS));
  requireKnown(fields, POST_FIELDS, 'Post');
  const paged = paginate(
    page.feed,
    (post) => post.id,
    parsePageQuery(call.params),
    `${page.id}.feed`,
    edgeLinks(call, page.id, edge),
    FEED_QUIRKS,
  );
  return { ...paged, data: paged.data.map((post) => select(post, fields)) };
}

/** Only the requested fields that the post has (a story-only post has no `message`). */
function select(post: SeedPost, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = post[field as keyof SeedPost];
    if (value !== undefined) out[field] = value;
  }
  return out;
}
