/**
 * Cursor-based pagination as the Graph API does it
 * (https://developers.facebook.com/docs/graph-api/results): `limit`, `after`,
 * `before`, opaque cursors, and absolute `next`/`previous` URLs that — like the
 * real ones — carry the access token in their query. A client must not follow
 * or render those URLs blindly; that is the point of reproducing them.
 */
import { createHash } from 'node:crypto';
import { badParam } from '../errors';

export interface PageQuery {
  limit: number;
  after?: string;
  before?: string;
}

export interface Paging {
  /** Absent on an empty page that still has `next`. */
  cursors?: { before: string; after: string };
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

/**
 * Cursors name the item they point at and the list they belong to, padded
 * with a digest to the few hundred characters real cursors have, so a client
 * that limits or decodes them fails here as it would there. `gap` marks the
 * cursor of a page that came back empty (see `emptyAt`).
 */
export function encodeCursor(scope: string, key: string, gap = false): string {
  const head = `${scope}:${key}:${gap ? 'g' : 'n'}`;
  const digest = createHash('sha256').update(head).digest('hex');
  return Buffer.from(`${head}|${digest.repeat(4)}`, 'utf8').toString('base64url');
}

function decodeCursor(
  cursor: string,
  scope: string,
  keys: readonly string[],
  name: string,
): { index: number; gap: boolean } {
  const decoded = /^[A-Za-z0-9_-]{1,2048}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const head = decoded.split('|')[0] ?? '';
  const match = head.startsWith(`${scope}:`) ? /^(.*):([gn])$/.exec(head.slice(scope.length + 1)) : null;
  const key = match?.[1];
  const gap = match?.[2] === 'g';
  // The gap before the first item names no item: its key is empty, and it stands before index 0.
  const index = key === '' && gap ? -1 : key === undefined ? -2 : keys.indexOf(key);
  if (key === undefined || index < -1 || (index === -1 && key !== '') || encodeCursor(scope, key, gap) !== cursor) {
    throw badParam(`The ${name} cursor is not valid`);
  }
  return { index, gap };
}

export interface PagingQuirks {
  /** The first page carries `previous` too, as the real feed sends it. */
  previousOnFirst?: boolean;
  /**
   * A page that would start at one of these indexes (0: the first page) comes
   * back empty once, with `next` (whose cursor then gives the real page) and
   * no cursors, as the provider's paging guide says a page may
   * (https://developers.facebook.com/docs/graph-api/results).
   */
  emptyAt?: readonly number[];
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
  quirks: PagingQuirks = {},
): Paged<T> {
  const keys = items.map(keyOf);
  const link = (cursor: Record<string, string>): string =>
    `${links.base}?${new URLSearchParams({ ...links.carry, limit: String(query.limit), ...cursor }).toString()}`;
  let start: number;
  let end: number;
  if (query.before !== undefined) {
    end = Math.max(0, decodeCursor(query.before, scope, keys, 'before').index);
    start = Math.max(0, end - query.limit);
  } else {
    const after = query.after === undefined ? undefined : decodeCursor(query.after, scope, keys, 'after');
    start = after === undefined ? 0 : after.index + 1;
    end = Math.min(items.length, start + query.limit);
    if (after?.gap !== true && quirks.emptyAt?.includes(start) === true && start < items.length) {
      const gap = encodeCursor(scope, keys[start - 1] ?? '', true);
      return { data: [], paging: { next: link({ after: gap }) } };
    }
  }
  const data = items.slice(start, end);
  const first = keys[start];
  const last = keys[end - 1];
  // An empty page carries no paging at all: {"data":[]}.
  if (data.length === 0 || first === undefined || last === undefined) return { data: [] };
  const cursors = { before: encodeCursor(scope, first), after: encodeCursor(scope, last) };
  const firstPage = start === 0 && query.before === undefined;
  return {
    data,
    paging: {
      cursors,
      ...(start > 0 || (firstPage && quirks.previousOnFirst === true)
        ? { previous: link({ before: cursors.before }) }
        : {}),
      ...(end < items.length ? { next: link({ after: cursors.after }) } : {}),
    },
  };
}
