/**
 * Cursor-based pagination as the Graph API does it
 * (https://developers.facebook.com/docs/graph-api/results): `limit`, `after`,
 * `before`, opaque cursors, and absolute `next`/`previous` URLs that — like the
 * real ones — carry the access token in their query. A client must not follow
 * or render those URLs blindly; that is the point of reproducing them.
 */
import { badParam } from '../errors';

export interface PageQuery {
  limit: number;
  after?: string;
  before?: string;
}

export interface Paging {
  cursors: { before: string; after: string };
  next?: string;
  previous?: string;
}

export interface Paged<T> {
  data: T[];
  paging?: Paging;
}

/**
 * The feed documents a maximum of 100 per request; larger values are capped
 * silently (what the real edge does) rather than refused.
 */
export function parsePageQuery(params: Record<string, string>, defaultLimit = 25, maxLimit = 100): PageQuery {
  const raw = params.limit;
  let limit = defaultLimit;
  if (raw !== undefined) {
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw badParam('Param limit must be a positive integer');
    limit = Math.min(Number(raw), maxLimit);
  }
  if (params.after !== undefined && params.before !== undefined) {
    throw badParam('Only one of the after and before cursors may be given');
  }
  return {
    limit,
    ...(params.after !== undefined ? { after: params.after } : {}),
    ...(params.before !== undefined ? { before: params.before } : {}),
  };
}

/** Cursors name the item they point at and the list they belong to. */
export function encodeCursor(scope: string, key: string): string {
  return Buffer.from(`${scope}:${key}`, 'utf8').toString('base64url');
}

function indexOfCursor(cursor: string, scope: string, keys: readonly string[], name: string): number {
  const decoded = /^[A-Za-z0-9_-]{1,400}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const index = decoded.startsWith(`${scope}:`) ? keys.indexOf(decoded.slice(scope.length + 1)) : -1;
  if (index < 0) throw badParam(`The ${name} cursor is not valid`);
  return index;
}

export interface LinkParts {
  /** Absolute URL of the edge without a query, e.g. http://host/v23.0/123/feed. */
  base: string;
  /** Parameters repeated in next/previous (access_token, fields). */
  carry: Record<string, string>;
}

export function paginate<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  query: PageQuery,
  scope: string,
  links: LinkParts,
): Paged<T> {
  const keys = items.map(keyOf);
  let start: number;
  let end: number;
  if (query.before !== undefined) {
    end = indexOfCursor(query.before, scope, keys, 'before');
    start = Math.max(0, end - query.limit);
  } else {
    start = query.after === undefined ? 0 : indexOfCursor(query.after, scope, keys, 'after') + 1;
    end = Math.min(items.length, start + query.limit);
  }
  const data = items.slice(start, end);
  const first = keys[start];
  const last = keys[end - 1];
  // An empty page carries no paging at all: {"data":[]}.
  if (data.length === 0 || first === undefined || last === undefined) return { data: [] };
  const cursors = { before: encodeCursor(scope, first), after: encodeCursor(scope, last) };
  const link = (cursor: Record<string, string>): string =>
    `${links.base}?${new URLSearchParams({ ...links.carry, limit: String(query.limit), ...cursor }).toString()}`;
  return {
    data,
    paging: {
      cursors,
      ...(start > 0 ? { previous: link({ before: cursors.before }) } : {}),
      ...(end < items.length ? { next: link({ after: cursors.after }) } : {}),
    },
  };
}
