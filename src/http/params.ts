import { BadRequestError, NotFoundError } from '../errors';

/**
 * Reads one query parameter that must appear at most once, as a plain string
 * of bounded length. Repeated parameters (arrays) and over-long values are a
 * 400, never a crash or an upstream call (docs/architecture.md#security-rules).
 */
export function singleParam(query: unknown, name: string, maxLength: number): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new BadRequestError({ key: 'error.param.once', values: { name } });
  if (value.length > maxLength) throw new BadRequestError({ key: 'error.param.tooLong', values: { name } });
  return value;
}

const PAGE_ID = /^\d{1,32}$/;

/** `:pageId` is all digits (docs/architecture.md#security-rules); checked before anything goes upstream. */
export function pageIdParam(value: unknown): string {
  if (typeof value !== 'string' || !PAGE_ID.test(value)) {
    throw new BadRequestError({ key: 'error.param.pageId' });
  }
  return value;
}

const POST_ID = /^(\d{1,32})_\d{1,32}$/;

/**
 * `:postId` is one of the page's own posts as the provider names them, `{page id}_{post number}`
 * (docs/provider-interface.md#post-page). Anything else is no post of this page: the 404 page, before any
 * upstream call.
 */
export function postIdParam(pageId: string, value: unknown): string {
  const match = typeof value === 'string' ? POST_ID.exec(value) : null;
  if (match === null || match[1] !== pageId) throw new NotFoundError({ key: 'error.post.notThisPage' });
  return value as string;
}
