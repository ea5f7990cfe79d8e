import { Router } from 'express';
import { z } from 'zod';
import { BadRequestError, NotFoundError } from '../errors';
import { isMessageKey, type MessageKey } from '../i18n/catalogs';
import type { Say } from '../i18n/locale';

const PAGE_ID = /^\d{1,32}$/;

/** `:pageId` is all digits; checked before anything goes upstream. */
export function pageIdParam(value: unknown): string {
  if (typeof value !== 'string' || !PAGE_ID.test(value)) {
    throw new BadRequestError({ key: 'error.param.pageId' });
  }
  return value;
}

/** A router whose `:pageId` is checked by {@link pageIdParam} before any of its handlers runs. */
export function pageRouter(): Router {
  const router = Router();
  router.param('pageId', (req, _res, next, value) => {
    req.params.pageId = pageIdParam(value);
    next();
  });
  return router;
}

/** `:pageId` in a route's input schema: checked as {@link pageIdParam} checks it (router.param, before all else). */
export const pageIdField = z.string().refine((value) => PAGE_ID.test(value), refusal({ key: 'error.param.pageId' }));

const POST_ID = /^(\d{1,32})_\d{1,32}$/;

/**
 * `:postId` is one of the page's own posts as the provider names them, `{page id}_{post number}`
 * (docs/provider-interface.md#post-page). Anything else is no post of this page: the 404 page, before any
 * upstream call.
 */
export const pageAndPostParams = z
  .object({ pageId: pageIdField, postId: z.string() })
  .refine(({ pageId, postId }) => POST_ID.exec(postId)?.[1] === pageId, {
    ...refusal({ key: 'error.post.notThisPage' }, true),
    path: ['postId'],
  });

/**
 * A query parameter of a route's input schema: at most once, a string of at most `maxLength` characters; refused
 * in the words of `error.param.once` / `error.param.tooLong`, naming it. Repeated parameters (arrays) and
 * over-long values are a 400, never a crash or an upstream call (docs/architecture.md#security-rules).
 */
export function queryParam(maxLength: number): z.ZodString {
  return z.string({ error: ONCE }).max(maxLength, { error: TOO_LONG });
}

const ONCE: MessageKey = 'error.param.once';
const TOO_LONG: MessageKey = 'error.param.tooLong';

/**
 * What a refinement of a route's input says when the value fails it: the words (a catalog key, with values), and
 * `notFound` when the value names nothing of ours (a 404, as for a post of another page).
 */
export function refusal(say: Say, notFound = false): { error: string; params: { say: Say; notFound: boolean } } {
  return { error: say.key, params: { say, notFound } };
}

/**
 * A route's input (its params, query and body) through its one schema, before anything goes upstream: the value, or
 * the first failure as the 400 (or 404) its schema names. Each check of a route's schema names its refusal, with
 * {@link queryParam} or {@link refusal}; any other failure of a shape is a parameter given more than once.
 */
export function parseInput<T>(schema: z.ZodType<T>, input: { params: unknown; query: unknown; body?: unknown }): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = String(issue?.path.at(-1) ?? '');
  const named = issue?.code === 'custom' ? (issue.params as { say?: Say; notFound?: boolean } | undefined) : undefined;
  if (named?.say !== undefined) throw named.notFound ? new NotFoundError(named.say) : new BadRequestError(named.say);
  // A built-in check (an enum, a pattern, a length) given `refusal(...)` keeps its words as the issue's message only.
  const message = issue?.message ?? '';
  if (message !== ONCE && message !== TOO_LONG && isMessageKey(message)) throw new BadRequestError({ key: message });
  const key = message === TOO_LONG ? TOO_LONG : ONCE;
  throw new BadRequestError({ key, values: { name } });
}
