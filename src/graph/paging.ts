import type { Logger } from '../log/logger';
import type { PagingLink } from './schemas';

/** The list a read asked for: the Graph origin and the versioned path, e.g. `/v26.0/123/feed`. */
export interface ListLocation {
  origin: string;
  path: string;
}

/** The `paging` of a list answer as its schema parsed it, as far as going on is concerned. */
export interface ListPaging {
  next?: PagingLink | undefined;
}

/** Where a list read on `graphUrl` (an origin) at `path` (already versioned) is. */
export function listLocation(graphUrl: string, path: string): ListLocation {
  return { origin: new URL(graphUrl).origin, path };
}

/**
 * The cursor of the next page of a list, or undefined when there is no more. The provider's `next` is what
 * says there is more — an empty page can carry it, with or without cursors (the "Paginated Results" guide,
 * docs/provider-interface.md#paging) — and the page is read with the `after` parameter of that link, never the
 * link itself: only when it names the origin, API version and path the app asked for (a `me` the app asked
 * for may come back as the person's id), and nothing else is taken from it. A link that fails the check is
 * "no more", with a warning that names the list and the reason, not the URL.
 */
export function nextCursor(
  paging: ListPaging | undefined,
  expected: ListLocation,
  logger?: Logger,
): string | undefined {
  const next = paging?.next;
  if (next === undefined) return undefined;
  const refused = refusal(next, expected);
  if (refused === undefined) return next.after;
  logger?.warn({ list: expected.path.split('/').pop(), reason: refused }, 'provider paging link not followed');
  return undefined;
}

function refusal(link: PagingLink, expected: ListLocation): string | undefined {
  if (link.origin !== expected.origin) return 'another origin';
  const got = link.path.split('/');
  const want = expected.path.split('/');
  if (got[1] !== want[1]) return 'another API version';
  const samePath =
    got.length === want.length &&
    want.every((part, i) => part === got[i] || (part === 'me' && /^\d{1,32}$/.test(got[i]!)));
  if (!samePath) return 'another path';
  if (link.after === undefined) return 'no after cursor';
  return undefined;
}
