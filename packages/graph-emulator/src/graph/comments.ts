/**
 * Comments (Comment reference, Post Comments and Comment Comments references): the `comments` edge of a post
 * or a comment, read through field expansion or as `/<post_id>/comments` and `/<comment_id>/comments`, with
 * `filter` (`toplevel`, the default, or `stream`: replies too), `order` (`chronological`, the default, or
 * `reverse_chronological`), `limit`, cursors and `summary`.
 *
 * Reading the comments themselves is visitor content and needs `pages_read_user_content` with the page token;
 * their count (`.limit(0)`) needs only what the post does (Page Feed reference). Who wrote a comment (`from`)
 * is given only to the Page's own token ("for any comments or replies owned by a Page, you must use a Page
 * access token if you want User information to be included"), and always when the author is a Page.
 */
import { badParam, missingPermission } from '../errors';
import type { SeedComment, SeedPost } from '../seed';
import { authorOf, type PageState } from '../store/data';
import { hasScope } from './auth';
import { ENGAGE_TASKS, hasAnyTask, isPageViewer, MODERATE_TASKS, tasksOf } from './writes';
import { edgeLinks, type GraphCall } from './call';
import { parseFields, withId, type FieldRequest } from './fields';
import { paginate, parsePageQuery, type Paged } from './paging';
import { project, scalars, SCALAR, validate, type EdgeValue, type ObjectType } from './select';

const COMMENT_FIELDS: Record<string, ObjectType['fields'][string]> = {
  id: SCALAR,
  created_time: SCALAR,
  message: SCALAR,
  from: { kind: 'object', type: scalars('Profile', ['id', 'name']) },
  like_count: SCALAR,
  comment_count: SCALAR,
  permalink_url: SCALAR,
  parent: { kind: 'object', type: scalars('Comment', ['id']) },
  // What the viewer may do, and has done (Comment reference; docs/reference.md#comment-moderation).
  is_hidden: SCALAR,
  can_comment: SCALAR,
  can_hide: SCALAR,
  can_like: SCALAR,
  can_remove: SCALAR,
  can_reply_privately: SCALAR,
  user_likes: SCALAR,
};
export const COMMENT: ObjectType = {
  name: 'Comment',
  fields: COMMENT_FIELDS,
  defaults: ['id', 'created_time', 'from', 'message'],
};

/** Reading comments (more than their count) needs pages_read_user_content. */
export function commentsGuard(call: GraphCall): void {
  if (!hasScope(call.caller.record, 'pages_read_user_content')) throw missingPermission('pages_read_user_content');
}

// A comment's replies are comments again.
COMMENT_FIELDS.comments = { kind: 'edge', type: COMMENT, defaultLimit: 25, paged: true, guard: commentsGuard };

/** Everything a comment can answer; `project` keeps what was asked for. */
function commentValue(call: GraphCall, page: PageState, post: SeedPost, c: SeedComment, parent?: SeedComment) {
  const from = authorOf(c);
  const [pageId, number] = post.id.split('_');
  const record = call.caller.record;
  const showFrom = (record.kind === 'page' && record.pageId === page.id) || from.id === page.id;
  return {
    ...viewerAbilities(call, page, c, from.id === page.id),
    id: c.id,
    created_time: c.created_time,
    message: c.message,
    from: showFrom ? { ...from } : undefined,
    like_count: c.like_count ?? 0,
    comment_count: c.replies?.length ?? 0,
    permalink_url: `https://www.facebook.com/${pageId}/posts/${number}?comment_id=${c.id}`,
    parent: parent === undefined ? undefined : { id: parent.id },
    comments: commentsValue(call, page, post, c.replies ?? [], `${c.id}.comments`, c),
  };
}

/**
 * The `can_*` fields and `user_likes` for the viewer. Only the Page's own token acts on its comments; what it may
 * do follows the person's tasks: MODERATE hides (never the Page's own comment) and removes any comment; a task
 * that acts as the Page (./writes.ts) likes, replies, and removes the Page's own; MESSAGING replies privately to
 * a visitor. `is_hidden` is the comment's own state.
 */
function viewerAbilities(call: GraphCall, page: PageState, c: SeedComment, byPage: boolean): Record<string, boolean> {
  const asPage = isPageViewer(call, page);
  const tasks = asPage ? tasksOf(call.ctx, call.caller.record, page.id) : [];
  const moderate = hasAnyTask(tasks, MODERATE_TASKS);
  const engage = hasAnyTask(tasks, ENGAGE_TASKS);
  return {
    is_hidden: c.is_hidden === true,
    can_comment: engage,
    can_hide: moderate && !byPage,
    can_like: engage,
    can_remove: moderate || (engage && byPage),
    can_reply_privately: asPage && tasks.includes('MESSAGING') && !byPage,
    user_likes: asPage && c.page_likes === true,
  };
}

/** `GET /<comment_id>` with the Page's token: one comment, its fields as in the `comments` edge. */
export function commentNode(
  call: GraphCall,
  page: PageState,
  post: SeedPost,
  comment: SeedComment,
  parent?: SeedComment,
): Record<string, unknown> {
  const fields = withId(parseFields(call.params.fields, COMMENT.defaults!));
  validate(fields, COMMENT);
  commentsGuard(call);
  return project(call, commentValue(call, page, post, comment, parent), fields, COMMENT);
}

/** `stream`: every comment with its replies after it; `toplevel`: the list itself. */
function flatten(list: readonly SeedComment[]): { c: SeedComment; parent?: SeedComment }[] {
  return list.flatMap((c) => [{ c }, ...(c.replies ?? []).map((r) => ({ c: r, parent: c }))]);
}

/** The comments of a post (`parent` undefined) or the replies of `parent`, as an edge value. */
export function commentsValue(
  call: GraphCall,
  page: PageState,
  post: SeedPost,
  list: readonly SeedComment[],
  scope: string,
  parent?: SeedComment,
  how: Pick<FieldRequest, 'filter' | 'order'> = {},
): EdgeValue {
  const rows = how.filter === 'stream' ? flatten(list) : list.map((c) => ({ c, parent }));
  if (how.order === 'reverse_chronological') rows.reverse();
  return {
    total: rows.length,
    scope,
    summary: { order: how.order ?? 'ranked', total_count: rows.length, can_comment: true },
    slice: (n) => rows.slice(0, n).map((r) => commentValue(call, page, post, r.c, r.parent)),
    narrow: (req) => commentsValue(call, page, post, list, scope, parent, req),
  };
}

/**
 * `GET /<post_id>/comments` and `GET /<comment_id>/comments` (the caller has checked the page token): the
 * edge on its own, paged by cursors with
 * `next`/`previous` links (which carry the token, as the provider's do), `summary=true|total_count`.
 */
export function commentsEdge(
  call: GraphCall,
  page: PageState,
  post: SeedPost,
  nodeId: string,
  comment?: SeedComment,
): Paged<Record<string, unknown>> & { summary?: Record<string, unknown> } {
  const fields = withId(parseFields(call.params.fields, COMMENT.defaults!));
  validate(fields, COMMENT);
  commentsGuard(call);
  const how = edgeOptions(call.params);
  const list = comment === undefined ? (post.comments ?? []) : (comment.replies ?? []);
  const rows =
    how.filter === 'stream' && comment === undefined ? flatten(list) : list.map((c) => ({ c, parent: comment }));
  if (how.order === 'reverse_chronological') rows.reverse();
  const paged = paginate(
    rows,
    (r) => r.c.id,
    parsePageQuery(call.params),
    `${nodeId}.comments`,
    edgeLinks(call, nodeId, 'comments'),
  );
  const out: Paged<Record<string, unknown>> & { summary?: Record<string, unknown> } = {
    ...paged,
    data: paged.data.map((r) => project(call, commentValue(call, page, post, r.c, r.parent), fields, COMMENT)),
  };
  const summary = call.params.summary;
  if (summary === 'true' || summary === '1')
    out.summary = { order: how.order ?? 'ranked', total_count: rows.length, can_comment: true };
  else if (summary === 'total_count') out.summary = { total_count: rows.length };
  return out;
}

/** `filter` and `order` as query parameters; another value is the provider's invalid-parameter error (100). */
function edgeOptions(params: Record<string, string>): Pick<FieldRequest, 'filter' | 'order'> {
  const { filter, order } = params;
  if (filter !== undefined && filter !== 'toplevel' && filter !== 'stream')
    throw badParam(`param filter must be one of {STREAM, TOPLEVEL} - got "${filter.slice(0, 40)}"`);
  if (order !== undefined && order !== 'chronological' && order !== 'reverse_chronological')
    throw badParam(`param order must be one of {CHRONOLOGICAL, REVERSE_CHRONOLOGICAL} - got "${order.slice(0, 40)}"`);
  return { ...(filter ? { filter } : {}), ...(order ? { order } : {}) };
}
