import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context';
import { BadRequestError, NotConnectedError } from '../errors';
import { GraphApiError } from '../graph/errors';
import { cursorSchema, PAGE_FIELDS, type FeedResponse, type PageDetails } from '../graph/schemas';
import { pageIdParam, singleParam } from '../http/params';
import { connectPage } from '../session/connect';
import { requireCsrf } from '../session/csrf';
import { save } from '../session/persist';
import { toFeedView, toPageView, type FeedView, type PageView } from './viewModel';

/** /pages: the picker, connecting a page, its details and feed. */
export function pageRoutes(ctx: AppContext): Router {
  const router = Router();
  // Every :pageId is checked before anything goes upstream.
  router.param('pageId', (req, _res, next, value) => {
    req.params.pageId = pageIdParam(value);
    next();
  });
  router.get('/', (req, res) => picker(ctx, req, res));
  router.post('/:pageId/connect', requireCsrf, (req, res) => connect(ctx, req, res));
  router.get('/:pageId', (req, res) => page(ctx, req, res));
  router.get('/:pageId/feed', (req, res) => olderPosts(ctx, req, res));
  return router;
}

async function picker(ctx: AppContext, req: Request, res: Response): Promise<void> {
  const userToken = ctx.keeper.userToken(req);
  if (!userToken) throw new NotConnectedError('Connect your account to choose a page.');
  if (ctx.config.pageId) {
    res.redirect(303, `/pages/${ctx.config.pageId}`);
    return;
  }
  const pages = await ctx.graph.listPages(userToken);
  const connected = new Set(ctx.keeper.connectedPages(req).map((p) => p.id));
  res.render('picker', {
    title: 'Choose a page',
    pages: pages.map((p) => ({ id: p.id, name: p.name, category: p.category, connected: connected.has(p.id) })),
    declined: declinedPermissions(ctx, req),
  });
}

/** Permissions the app asked for that the person did not grant at login (known when the provider lists them). */
function declinedPermissions(ctx: AppContext, req: Request): string[] {
  const granted = ctx.keeper.current(req)?.scopes;
  return granted ? ctx.config.scopes.filter((scope) => !granted.includes(scope)) : [];
}

async function connect(ctx: AppContext, req: Request, res: Response): Promise<void> {
  const pageId = req.params.pageId as string;
  await connectPage(ctx, req, pageId);
  await save(req);
  res.redirect(303, `/pages/${pageId}`);
}

/** Details and the first feed page, fetched in parallel: one upstream round trip of latency. */
async function page(ctx: AppContext, req: Request, res: Response): Promise<void> {
  const pageId = req.params.pageId as string;
  // Authorization first: the shared cache is read only for a session that holds a token for this page.
  const token = pageTokenOrRedirect(ctx, req, res, pageId);
  if (!token) return;
  // Shared only between sessions with the same grant, so declining a permission still hides what it guards.
  const grant = grantKey(ctx, req);
  const cache = ctx.pageCache;
  const [details, feed] = await forPage(
    ctx,
    pageId,
    both(
      cache.get(pageId, 'details', `${DETAILS_FIELDS} ${grant}`, () => ctx.graph.pageDetails(token, pageId)),
      cache.get(pageId, 'feed', `first ${grant}`, () => ctx.graph.feed(token, pageId)),
    ),
  );
  const view = viewOf(details, pageViews, (d) => toPageView(d, ''));
  ctx.keeper.renamePage(req, pageId, view.name);
  res.render('page', { title: view.name, page: view, feed: viewOf(feed, feedViews, toFeedView) });
}

async function olderPosts(ctx: AppContext, req: Request, res: Response): Promise<void> {
  const pageId = req.params.pageId as string;
  const after = cursor(req, 'after');
  const before = cursor(req, 'before');
  if (!after === !before) throw new BadRequestError('Give exactly one of the cursors "after" or "before".');
  const token = pageTokenOrRedirect(ctx, req, res, pageId);
  if (!token) return;
  const feed = await forPage(ctx, pageId, ctx.graph.feed(token, pageId, { after, before }));
  const name = ctx.keeper.connectedPages(req).find((p) => p.id === pageId)?.name || `Page ${pageId}`;
  res.render('feed', { title: `${name}: posts`, page: { id: pageId, name }, feed: toFeedView(feed) });
}

const DETAILS_FIELDS = PAGE_FIELDS.join(',');

/**
 * Both reads, concurrently; on a failure, waits for the other before
 * answering. With Promise.all the sibling would go on retrying after the
 * response, and the next view would join that doomed call (coalescing).
 */
async function both<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [ra, rb] = await Promise.allSettled([a, b]);
  if (ra.status === 'rejected') throw ra.reason;
  if (rb.status === 'rejected') throw rb.reason;
  return [ra.value, rb.value];
}

/**
 * View models of cached answers, made once per answer: a cache hit returns the
 * same object, and formatting 25 post times per view was the warm path's
 * largest cost (issue 5 profile). Weak, so they go when the answer does.
 */
const pageViews = new WeakMap<PageDetails, PageView>();
const feedViews = new WeakMap<FeedResponse, FeedView>();

function viewOf<A extends object, V>(answer: A, views: WeakMap<A, V>, make: (answer: A) => V): V {
  let view = views.get(answer);
  if (view === undefined) views.set(answer, (view = make(answer)));
  return view;
}

/** The permissions granted at login, in a stable order ("?" when the provider did not say). */
function grantKey(ctx: AppContext, req: Request): string {
  const scopes = ctx.keeper.current(req)?.scopes;
  return scopes ? [...scopes].sort().join(',') : '?';
}

/** A read for one page; when the provider refuses the token or a permission for it, the page's cache goes too. */
async function forPage<T>(ctx: AppContext, pageId: string, read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof GraphApiError && (err.kind === 'token' || err.kind === 'permission')) ctx.pageCache.dropPage(pageId);
    throw err;
  }
}

function cursor(req: Request, name: string): string | undefined {
  const value = singleParam(req.query, name, 512);
  if (value === undefined) return undefined;
  if (!cursorSchema.safeParse(value).success) throw new BadRequestError(`The "${name}" cursor is malformed.`);
  return value;
}

/** The page token from the session; without one, back to the picker (logged in) or an explanation (not). */
function pageTokenOrRedirect(ctx: AppContext, req: Request, res: Response, pageId: string): string | undefined {
  const token = ctx.keeper.pageToken(req, pageId);
  if (token) return token;
  if (!ctx.keeper.userToken(req)) throw new NotConnectedError('Connect your account to see this page.');
  req.session.flash = 'Choose the page to connect first.';
  res.redirect(303, ctx.config.pageId ? '/' : '/pages');
  return undefined;
}
