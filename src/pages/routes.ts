import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context';
import { BadRequestError, NotConnectedError } from '../errors';
import { GraphApiError } from '../graph/errors';
import { cursorSchema, MAX_CURSOR, type FeedResponse, type PageDetails } from '../graph/schemas';
import { pageIdParam, singleParam } from '../http/params';
import { connectPage } from './connect';
import { requireCsrf } from '../session/csrf';
import { sessionCookieName } from '../session/middleware';
import { save } from '../session/persist';
import { subscribePage } from '../webhooks/subscribe';
import { sessionRateLimit } from './limits';
import {
  confirmToken,
  dropOwnShare,
  gateOf,
  listPages,
  noteRole,
  readPage,
  readPageSettled,
  unwrap,
  type Settled,
} from './reads';
import { fragment } from './fragments';
import { imageFilter } from './images';
import { toFeedView, toPageView, type FeedView, type PageView, type ViewOptions } from './viewModel';
import { PROVIDER_NAME, permissionWords } from '../words';

/**
 * The routes the cache does not serve (the picker, older posts), limited per
 * session. Mounted before the session middleware, so that a session over its
 * limit is refused before its session is read: the refusals of a burst cost
 * next to nothing and do not delay other people's views.
 */
export function pageRateLimits(ctx: AppContext): Router {
  const router = Router();
  const limit = sessionRateLimit(ctx.config.sessionRateLimit, sessionCookieName(ctx.config));
  router.get('/', limit);
  router.get('/:pageId/feed', limit);
  return router;
}

/** /pages: the picker, connecting a page, its details and feed. */
export function pageRoutes(ctx: AppContext): Router {
  const router = Router();
  // Only images the CSP lets the browser load are rendered (docs/architecture.md#images).
  const images = imageFilter(ctx.config.imageOrigins);
  // Every :pageId is checked before anything goes upstream.
  router.param('pageId', (req, _res, next, value) => {
    req.params.pageId = pageIdParam(value);
    next();
  });
  router.get('/', (req, res) => picker(ctx, req, res));
  router.post('/:pageId/connect', requireCsrf, (req, res) => connect(ctx, req, res));
  router.get('/:pageId', (req, res) => page(ctx, req, res, images));
  router.get('/:pageId/feed', (req, res) => olderPosts(ctx, req, res, images));
  router.get('/:pageId/feed/fresh', (req, res) => freshPosts(ctx, req, res, images));
  return router;
}

async function picker(ctx: AppContext, req: Request, res: Response): Promise<void> {
  const userToken = ctx.keeper.userToken(req);
  if (!userToken) throw new NotConnectedError('Connect your account to choose a page.');
  if (ctx.config.pageId) {
    res.redirect(303, `/pages/${ctx.config.pageId}`);
    return;
  }
  // Declining the permission to list Pages is not "you manage no Pages": the picker says which it is.
  const list = await listPages(ctx, req, userToken).catch((err: unknown) => {
    if (isPermissionError(err)) return undefined;
    throw err;
  });
  const connected = new Set(ctx.keeper.connectedPages(req).map((p) => p.id));
  res.render('picker', {
    title: 'Choose a page',
    listBlocked: list === undefined,
    cut: list?.cut ?? false,
    pages: (list?.pages ?? []).map((p) => ({
      id: p.id,
      name: p.name,
      category: p.category,
      connected: connected.has(p.id),
    })),
    declined: declinedPermissions(ctx, req)
      .filter((scope) => !(list === undefined && scope === LIST_SCOPE))
      .map(permissionWords),
  });
}

const LIST_SCOPE = 'pages_show_list';

/** Permissions the app asked for that the person did not grant at login (known when the provider lists them). */
function declinedPermissions(ctx: AppContext, req: Request): string[] {
  const granted = ctx.keeper.current(req)?.scopes;
  // `openid` is no choice on the dialog and nothing the person can grant again.
  return granted ? ctx.config.scopes.filter((scope) => !granted.includes(scope) && scope !== 'openid') : [];
}

function isPermissionError(err: unknown): err is GraphApiError {
  return err instanceof GraphApiError && err.kind === 'permission';
}

async function connect(ctx: AppContext, req: Request, res: Response): Promise<void> {
  const pageId = req.params.pageId as string;
  await connectPage(ctx, req, pageId);
  // The session's tokens just succeeded upstream for this page, and the picker's list says its role.
  confirmToken(ctx, req, pageId, ctx.now());
  noteRole(ctx, req, pageId, ctx.keeper.userToken(req) ?? '');
  await subscribePage(ctx, req, pageId);
  await save(req);
  res.redirect(303, `/pages/${pageId}`);
}

type Images = NonNullable<ViewOptions['images']>;

async function page(ctx: AppContext, req: Request, res: Response, images: Images): Promise<void> {
  const pageId = req.params.pageId as string;
  // Authorization first: the shared cache is read only for a session that holds a token for this page.
  const token = pageTokenOrRedirect(ctx, req, res, pageId);
  if (!token) return;
  const [details, feed, refusal] = partialRead(ctx, req, pageId, await readPageSettled(ctx, req, pageId, token));
  const fallbackName = refusal ? await knownName(ctx, req, pageId) : '';
  const view = viewOf(details, pageViews, (d) => toPageView(d, fallbackName, { images }));
  if (details.name) ctx.keeper.renamePage(req, pageId, view.name);
  const live = feed !== undefined && ctx.keeper.current(req)?.pages[pageId]?.live === true;
  const feedView = feed ? viewOf(feed, feedViews, (f) => toFeedView(f, 'first', { images, pageId })) : NO_FEED;
  // Details that could not be read are not "not given": the card alone, no details section.
  const noDetails = refusal !== undefined && details.name === undefined;
  res.render('page', {
    title: view.name,
    page: view,
    card: fragment(req.app, 'pageCard', view),
    about: noDetails ? undefined : fragment(req.app, 'pageDetails', view),
    posts: feed ? fragment(req.app, 'posts', feedView) : undefined,
    // The feed needs a permission the person declined: the page shows what it can, and says so.
    feedBlocked: refusal ? feedBlocked(pageId, refusal, noDetails) : undefined,
    live,
    // The stream replays changes after this moment: what this rendering has not seen.
    liveSince: ctx.now(),
  });
}

/**
 * What the feed section says instead of posts — the provider's own words for the person when it wrote
 * some (escaped by the template), else the permission in words — and the way to grant it, back to this
 * page after.
 */
function feedBlocked(pageId: string, refusal: GraphApiError, noDetails: boolean): { text: string; askAgain: string } {
  // A refusal that names the permission reads best in our words for it; the provider's may name its identifier.
  const theirs =
    refusal.permission === undefined ? [refusal.userTitle, refusal.userMessage].filter(Boolean).join(': ') : '';
  return {
    text:
      theirs ||
      `Pagelight can't show this Page's posts${noDetails ? ' or details' : ''}, because the permission “${permissionWords(refusal.permission ?? FEED_SCOPE)}” ` +
        `wasn't granted on ${PROVIDER_NAME}. Ask again and allow it to see them here.`,
    askAgain: `/auth/login?rerequest=1&return_to=${encodeURIComponent(`/pages/${pageId}`)}`,
  };
}

const FEED_SCOPE = 'pages_read_engagement';

/** An empty feed, for the templates' sake: the feed section shows the explanation instead. */
const NO_FEED: FeedView = toFeedView({ data: [] }, 'first');

/**
 * A page view when the provider refused a permission (the person declined
 * `pages_read_engagement`, or the Page's settings keep its posts from the
 * app): the details alone when they were read, else only the name the
 * session knows, and no feed (docs/architecture.md#error-model). Any other
 * failure is the page's error, as for every read.
 */
function partialRead(
  ctx: AppContext,
  req: Request,
  pageId: string,
  [detailsRead, feedRead]: Settled<PageDetails, FeedResponse>,
): [PageDetails, FeedResponse | undefined, GraphApiError | undefined] {
  const failures = [detailsRead, feedRead].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (failures.length === 0) {
    const [details, feed] = unwrap([detailsRead, feedRead]);
    return [details, feed, undefined];
  }
  failures.forEach((err) => dropOnRefusal(ctx, req, pageId, err));
  const other = failures.find((err) => !isPermissionError(err));
  if (other !== undefined) throw other as Error;
  const refusal = (feedRead.status === 'rejected' ? feedRead.reason : failures[0]) as GraphApiError;
  const details: PageDetails = detailsRead.status === 'fulfilled' ? detailsRead.value : { id: pageId };
  return [details, undefined, refusal];
}

/**
 * The page's name when its details cannot be read: as the session last had it, else from the person's
 * list of Pages (kept briefly, so usually no call), else none.
 */
async function knownName(ctx: AppContext, req: Request, pageId: string): Promise<string> {
  const stored = ctx.keeper.connectedPages(req).find((p) => p.id === pageId)?.name;
  if (stored) return stored;
  const userToken = ctx.keeper.userToken(req);
  if (!userToken) return '';
  const list = await listPages(ctx, req, userToken).catch(() => undefined);
  return list?.pages.find((p) => p.id === pageId)?.name ?? '';
}

/**
 * The first feed page as a fragment (the posts partial, escaped as on the page), for the "new posts — Show"
 * button of a live page (docs/architecture.md#live-updates). Read like the page view, cache included.
 */
async function freshPosts(ctx: AppContext, req: Request, res: Response, images: Images): Promise<void> {
  const pageId = req.params.pageId as string;
  const token = pageTokenOrRedirect(ctx, req, res, pageId);
  if (!token) return;
  const [, feed] = await forPage(ctx, req, pageId, readPage(ctx, req, pageId, token));
  res.type('html').send(
    fragment(
      req.app,
      'posts',
      viewOf(feed, feedViews, (f) => toFeedView(f, 'first', { images, pageId })),
    ).html,
  );
}

async function olderPosts(ctx: AppContext, req: Request, res: Response, images: Images): Promise<void> {
  const pageId = req.params.pageId as string;
  const after = cursor(req, 'after');
  const before = cursor(req, 'before');
  const offset = feedOffset(req);
  if (!after === !before)
    throw new BadRequestError(
      'This link to more posts is incomplete or was changed. Go back to the page and open the posts from there.',
    );
  const token = pageTokenOrRedirect(ctx, req, res, pageId);
  if (!token) return;
  const feed = await forPage(
    ctx,
    req,
    pageId,
    ctx.graph.feed(token, pageId, { after, before }, gateOf(ctx, req)),
  ).catch(staleCursor);
  const name = ctx.keeper.connectedPages(req).find((p) => p.id === pageId)?.name || `Page ${pageId}`;
  res.render('feed', {
    title: `${name}: posts`,
    page: { id: pageId, name },
    feed: toFeedView(feed, 'older', { images, pageId, offset }),
  });
}

/**
 * The provider's "invalid parameter" (100) on a cursor the person brought in
 * the link: an old or edited link, not a fault of ours or the provider's.
 */
function staleCursor(err: unknown): never {
  if (err instanceof GraphApiError && err.graph.code === 100 && err.code === 'graph_invalid') {
    throw new BadRequestError('This link is out of date. Go back to the page and open the posts from there.');
  }
  throw err;
}

/**
 * View models of cached answers, made once per answer: a cache hit returns the
 * same object, and formatting 25 post times per view was the warm path's
 * largest cost (see docs/architecture.md#page-cache). Weak, so they go when the answer does.
 */
const pageViews = new WeakMap<PageDetails, PageView>();
const feedViews = new WeakMap<FeedResponse, FeedView>();

function viewOf<A extends object, V>(answer: A, views: WeakMap<A, V>, make: (answer: A) => V): V {
  let view = views.get(answer);
  if (view === undefined) views.set(answer, (view = make(answer)));
  return view;
}

/** A read for one page; when the provider refuses the token or a permission for it, cached answers go too. */
async function forPage<T>(ctx: AppContext, req: Request, pageId: string, read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    dropOnRefusal(ctx, req, pageId, err);
    throw err;
  }
}

/** A refused token: the page's cache. A refused permission: what this session's grant and role could be served. */
function dropOnRefusal(ctx: AppContext, req: Request, pageId: string, err: unknown): void {
  if (!(err instanceof GraphApiError)) return;
  if (err.kind === 'token') ctx.pageCache.dropPage(pageId);
  else if (err.kind === 'permission') dropOwnShare(ctx, req, pageId);
}

function cursor(req: Request, name: string): string | undefined {
  const value = singleParam(req.query, name, MAX_CURSOR);
  if (value === undefined) return undefined;
  if (!cursorSchema.safeParse(value).success)
    throw new BadRequestError(
      'This link to more posts is incomplete or was changed. Go back to the page and open the posts from there.',
    );
  return value;
}

/** Posts a feed page can stand after: far more than anyone pages through, small enough to print. */
export const MAX_OFFSET = 100_000;

/**
 * Where a /feed page stands (`offset`: the posts before it), carried in our own links for "Posts 26–50".
 * Absent: the position is not shown. Not a small whole number: 400, as for a bad cursor.
 */
function feedOffset(req: Request): number | undefined {
  const value = singleParam(req.query, 'offset', 10);
  if (value === undefined) return undefined;
  if (!/^\d{1,6}$/.test(value) || Number(value) > MAX_OFFSET)
    throw new BadRequestError(`The "offset" must be a whole number from 0 to ${MAX_OFFSET}.`);
  return Number(value);
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
