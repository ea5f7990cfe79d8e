/**
 * A page's feed (https://developers.facebook.com/docs/graph-api/reference/page/feed):
 * newest first, `limit` (default 25, max 100), `after`/`before` cursors, and
 * each post answered with the same field expressions as `/<post_id>`.
 */
import type { PageState } from '../store/data';
import { edgeLinks, type GraphCall } from './call';
import { parseFields, withId } from './fields';
import { paginate, parsePageQuery, type Paged } from './paging';
import { POST, POST_DEFAULTS, postValue } from './post';
import { project, validate } from './select';

/**
 * Where the feed behaves as the real one does: `previous` on the first page,
 * and a page that would start at one of `ctx.emptyFeedPages` (default post 50)
 * comes back empty once, with `next` and no cursors (`setEmptyFeedPages`).
 */

export function feedEdge(call: GraphCall, page: PageState, edge: string): Paged<Record<string, unknown>> {
  const fields = withId(parseFields(call.params.fields, POST_DEFAULTS));
  validate(fields, POST);
  const paged = paginate(
    page.feed,
    (post) => post.id,
    parsePageQuery(call.params),
    `${page.id}.feed`,
    edgeLinks(call, page.id, edge),
    { previousOnFirst: true, emptyAt: call.ctx.emptyFeedPages },
  );
  return { ...paged, data: paged.data.map((post) => project(call, postValue(call, page, post), fields, POST)) };
}

/** `GET /{page-id}/scheduled_posts`: the Page's scheduled posts, soonest first, paged and answered like the feed. */
export function scheduledEdge(call: GraphCall, page: PageState): Paged<Record<string, unknown>> {
  const fields = withId(parseFields(call.params.fields, POST_DEFAULTS));
  validate(fields, POST);
  const waiting = page.scheduled
    .filter((p) => p.scheduled_publish_time !== undefined)
    .sort((a, b) => (a.scheduled_publish_time ?? 0) - (b.scheduled_publish_time ?? 0));
  const paged = paginate(
    waiting,
    (post) => post.id,
    parsePageQuery(call.params),
    `${page.id}.scheduled`,
    edgeLinks(call, page.id, 'scheduled_posts'),
  );
  return { ...paged, data: paged.data.map((post) => project(call, postValue(call, page, post), fields, POST)) };
}
