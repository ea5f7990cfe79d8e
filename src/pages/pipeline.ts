import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { AppContext } from '../context';
import { NotConnectedError, WriteForbiddenError } from '../errors';
import { parseInput } from '../http/params';
import type { Locale } from '../i18n/locale';
import type { PageAccess, PageChanges } from '../session/access';

/**
 * The one pipeline of every `/pages/:pageId…` view. A route declares its input, its load and its view; the steps
 * between are the same for all, in this order:
 *
 * 1. the route's input (params, query and a write's body) through its one zod schema: a bad value is a 400 before
 *    anything upstream (a write mounts requireCsrf before its pageRoute, so a forged form is refused before this);
 * 2. the session's access for the Page, read once as a value ({@link PageAccess});
 * 3. its page token, or the way to get one (the picker, or sign-in's explanation); a write is refused instead
 *    (403, `withoutToken: 'forbidden'`): a redirect would drop the text the person typed;
 * 4. the load, from values alone: no request below this line;
 * 5. what the load taught the session, written in one place (`applyPageChanges`);
 * 6. the view: the load's failure is the page's error, else the route's view renders its outcome.
 */

/** What every load gives back: its outcome, or the failure that is the page's error, and what the session keeps. */
export interface Load<O> {
  outcome: O | { error: unknown };
  changes: PageChanges;
}

/** What a view is given besides the load's outcome. */
export interface ViewStep<I> {
  ctx: AppContext;
  req: Request;
  res: Response;
  access: PageAccess;
  input: I;
  locale: Locale;
}

export interface PageRoute<I extends { pageId: string }, O> {
  /** The route's params, query and body, checked and typed in one schema (../http/params.ts `queryParam`, `refusal`). */
  input: z.ZodType<I>;
  /** Reads what the view shows: with the session's values and token, never the request. */
  load: (ctx: AppContext, access: PageAccess, token: string, input: I) => Promise<Load<O>>;
  view: (step: ViewStep<I>, outcome: O) => void | Promise<void>;
  /** Without the Page's token: to the picker or sign-in (a view, the default), or a 403 (a write). */
  withoutToken?: 'redirect' | 'forbidden';
}

/** The route as an Express handler: the steps above, in their order. */
export function pageRoute<I extends { pageId: string }, O>(ctx: AppContext, route: PageRoute<I, O>): RequestHandler {
  return async (req, res) => {
    const input = parseInput(route.input, { params: req.params, query: req.query, body: req.body as unknown });
    const access = ctx.signIns.pageAccess(req, input.pageId);
    // Authorization first: the shared cache is read only for a session that holds a token for this page.
    if (!access.pageToken && route.withoutToken === 'forbidden') throw new WriteForbiddenError('token');
    const token = pageTokenOrRedirect(ctx, req, res, access);
    if (token === undefined) return;
    const { outcome, changes } = await route.load(ctx, access, token, input);
    ctx.signIns.applyPageChanges(req, input.pageId, changes);
    if (isFailure(outcome)) throw outcome.error;
    await route.view({ ctx, req, res, access, input, locale: res.locals.locale }, outcome);
  };
}

/** A load's failure, told from an outcome of its own: no outcome has an `error` field. */
export function isFailure<O>(outcome: O | { error: unknown }): outcome is { error: unknown } {
  return typeof outcome === 'object' && outcome !== null && 'error' in outcome;
}

/** The page token the session holds; without one, back to the picker (logged in) or an explanation (not). */
function pageTokenOrRedirect(ctx: AppContext, req: Request, res: Response, access: PageAccess): string | undefined {
  if (access.pageToken) return access.pageToken;
  if (!access.userToken) throw new NotConnectedError({ key: 'error.notConnected.page' });
  req.session.flash = { key: 'flash.chooseFirst' };
  res.redirect(303, ctx.config.pageId ? '/' : '/pages');
  return undefined;
}
