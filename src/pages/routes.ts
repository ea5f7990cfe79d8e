import { Router, type Application, type Request, type Response } from 'express';
import type { AppContext } from '../context';
import { BadRequestError, NotConnectedError } from '../errors';
import { GraphApiError } from '../graph/errors';
import { BUSINESS_SCOPE, INSIGHTS_SCOPE } from '../graph/provider';
import { cursorSchema, MAX_CURSOR, type PageList } from '../graph/schemas';
import { pageIdParam, postIdParam, singleParam } from '../http/params';
import type { PageAccess, UserAccess } from '../session/access';
import { requireCsrf } from '../session/csrf';
import { requestNumber } from '../session/connection';
import { sessionIdOf } from '../session/middleware';
import { save } from '../session/persist';
import { connectChosenPage } from './connect';
import { MAX_QUERY, toPickerView } from './picker-view';
import { renderPost, renderedFeed, renderedInsights, renderedPage, renderedPost } from './fragments';
import { imageFilter } from './images';
import { loadPageInsights, loadPostViewers } from './insights-load';
import { blockedView, toInsightsView } from './insights-view';
import { SessionRateLimit } from './fairness';
import {
  bothOrDrop,
  forPage,
  admitReads,
  isPermissionError,
  listPages,
  loadPage,
  readDetails,
  readPage,
  type PageOutcome,
} from './load';
import { providerWeb, toFeedView, toPageView, type ViewOptions } from './view-model';
import { loadPost, type CommentsRead } from './load-post';
import { withinDeadline } from './deadline';
import { ownPath } from '../http/return-to';
import { toPostPageView } from './post-page-view';
import { commentIdSchema } from '../graph/schemas';
import type { Locale, Say } from '../i18n/locale';
import { permissionWords } from '../words';
import { asksFor } from './offered';
import { postActions } from './write-routes';

/**
 * The routes that always read upstream, limited per session (the picker, older posts, a later page of a post's
 * comments or a comment's replies, connecting a page). Mounted before the session middleware, so that a
 * session over its limit is refused before its session is read: the refusals of a burst cost next to nothing
 * and do not delay other people's views. Reads the cache may serve (the page, a post, insights) count at their
 * first read upstream instead (./fairness.ts). Connecting counts in a bucket of its own, with the same figure: a
 * person who connects a few pages keeps their reads of posts.
 */
export function pageRateLimits(ctx: AppContext): Router {
  const router = Router();
  const sessionOf = (req: Request) => sessionIdOf(req.headers.cookie, ctx.config);
  const limit = ctx.sessionRateLimit.middleware(sessionOf, requestNumber);
  router.get('/', limit);
  router.get('/:pageId/feed', limit);
  router.get('/:pageId/posts/:postId', (req, res, next) => {
    if (req.query.after === undefined && req.query.replies === undefined) next();
    else limit(req, res, next);
  });
  const connecting = new SessionRateLimit(ctx.config.sessionRateLimit);
  router.post('/:pageId/connect', connecting.middleware(sessionOf, requestNumber));
  return router;
}

/** /pages: the picker, connecting a page, its details and feed, its insights. */
export function pageRoutes(ctx: AppContext): Router {
  const router = Router();
  // Only images the CSP lets the browser load are rendered (docs/architecture.md#images).
  const images = imageFilter(ctx.config.imageOrigins);
  // The provider's web links on the configured dialog origin: the emulator's www host in demo mode.
  const web = providerWeb(ctx.config.authUrl);
  // Insights are offered only when the app asks for their permission (./offered.ts).
  const offersInsights = asksFor(ctx.config, INSIGHTS_SCOPE);
  // Every :pageId is checked before anything goes upstream.
  router.param('pageId', (req, _res, next, value) => {
    req.params.pageId = pageIdParam(value);
    next();
  });
  router.get('/', (req, res) => picker(ctx, req, res, images));
  router.post('/:pageId/connect', requireCsrf, (req, res) => connect(ctx, req, res));
  router.get('/:pageId', (req, res) => page(ctx, req, res, { images, web, insights: offersInsights }));
  router.get('/:pageId/feed', (req, res) => olderPosts(ctx, req, res, { images, web, insights: offersInsights }));
  router.get('/:pageId/feed/fresh', (req, res) => freshPosts(ctx, req, res, { images, web, insights: offersInsights }));
  router.get('/:pageId/insights', (req, res) => insights(ctx, req, res));
  const media = imageFilter(ctx.config.mediaOrigins);
  router.get('/:pageId/posts/:postId', (req, res) =>
    post(ctx, req, res, { images, web, insights: offersInsights }, media),
  );
  return router;
}

async function picker(ctx: AppContext, req: Request, res: Response, images: ViewSettings['images']): Promise<void> {
  const user = ctx.connections.userAccess(req);
  if (!user.userToken) throw new NotConnectedError({ key: 'error.notConnected.choose' });
  if (ctx.config.pageId) {
    res.redirect(303, `/pages/${ctx.config.pageId}`);
    return;
  }
  const query = singleParam(req.query, 'q', MAX_QUERY) ?? '';
  // Declining the permission to list Pages is not "you manage no Pages": the picker says which it is.
  const list = await listPages(ctx, user, user.userToken, user.scopes).catch((err: unknown) => {
    if (isPermissionError(err)) return undefined;
    throw err;
  });
  const connected = new Set(user.pages.map((p) => p.id));
  const locale = res.locals.locale;
  res.render('picker', {
    title: locale.t('picker.title'),
    listBlocked: list === undefined,
    cut: list?.cut ?? false,
    picker: toPickerView(list?.pages ?? [], connected, query, images, locale),
    portfolioHint: list === undefined ? undefined : portfolioHint(ctx, locale, list),
    declined: declinedPermissions(ctx, user)
      .filter((scope) => !(list === undefined && scope === LIST_SCOPE))
      .map((scope) => locale.t('quote', { text: permissionWords(locale, scope) })),
  });
}

const LIST_SCOPE = 'pages_show_list';

/**
 * One line on how to see the Pages of a business portfolio, when they are not listed
 * (docs/provider-interface.md#portfolio-pages): allow the permission, when the app asks for it; else a role of
 * one's own on the Page, which puts it in `/me/accounts`.
 */
function portfolioHint(
  ctx: AppContext,
  locale: Locale,
  list: PageList,
): { text: string; askAgain: boolean } | undefined {
  if (list.portfolios === 'listed') return undefined;
  if (ctx.config.scopes.includes(BUSINESS_SCOPE))
    return {
      text: locale.t('picker.portfolio.allow', { permission: permissionWords(locale, BUSINESS_SCOPE) }),
      askAgain: true,
    };
  return { text: locale.t('picker.portfolio.role'), askAgain: false };
}

/** Permissions the app asked for that the person did not grant at login (known when the provider lists them). */
function declinedPermissions(ctx: AppContext, user: UserAccess): string[] {
  const granted = user.scopes;
  // `openid` is no choice on the dialog and nothing the person can grant again.
  return granted ? ctx.config.scopes.filter((scope) => !granted.includes(scope) && scope !== 'openid') : [];
}

async function connect(ctx: AppContext, req: Request, res: Response): Promise<void> {
  const pageId = req.params.pageId as string;
  const user = ctx.connections.userAccess(req);
  // Within the session's share of provider calls, as every read (docs/architecture.md#fairness-between-sessions).
  const changes = await ctx.concurrentReadLimit.run(user.sessionId, () =>
    connectChosenPage(ctx, user, pageId, req.log ?? ctx.logger),
  );
  ctx.connections.applyPageChanges(req, pageId, changes);
  await save(req);
  res.redirect(303, `/pages/${pageId}`);
}

/** How every view of a page shows the provider's images and links. */
type ViewSettings = Required<Pick<ViewOptions, 'images' | 'web' | 'insights'>>;

/** A Page: what the session holds for it, the load, what the load taught the session, the view. */
async function page(ctx: AppContext, req: Request, res: Response, settings: ViewSettings): Promise<void> {
  const pageId = req.params.pageId as string;
  const access = ctx.connections.pageAccess(req, pageId);
  // Authorization first: the shared cache is read only for a session that holds a token for this page.
  const token = pageTokenOrRedirect(ctx, req, res, access);
  if (!token) return;
  const { outcome, changes } = await loadPage(ctx, access, token);
  ctx.connections.applyPageChanges(req, pageId, changes);
  if ('error' in outcome) throw outcome.error;
  res.render('page', pageLocals(ctx, req.app, res.locals.locale, access, outcome, settings));
}

/** A post of its own: what the session holds for its page, the load, what the load taught the session, the view. */
async function post(
  ctx: AppContext,
  req: Request,
  res: Response,
  links: ViewSettings,
  media: ViewSettings['images'],
): Promise<void> {
  const pageId = req.params.pageId as string;
  const postId = postIdParam(pageId, req.params.postId);
  const after = cursor(req.query, 'after', COMMENTS_LINK);
  const replies = commentId(req.query, postId);
  const access = ctx.connections.pageAccess(req, pageId);
  const token = pageTokenOrRedirect(ctx, req, res, access);
  if (!token) return;
  // The post's viewers are the insights' read, beside the post's: their own cache entry, nothing when not granted.
  // An extra, as the comments are: within its own deadline, and left out when late or failing.
  const [{ outcome, changes }, viewers] = await Promise.all([
    loadPost(ctx, access, token, postId, { after, replies }),
    withinDeadline(loadPostViewers(ctx, access, token, postId), ctx.config.postExtrasDeadlineMs).catch(
      (error: unknown) => ({ outcome: { error }, changes: {} }),
    ),
  ]);
  ctx.connections.applyPageChanges(req, pageId, { ...viewers.changes, ...changes });
  if ('error' in outcome) {
    // The provider refusing a cursor or comment id the link brought: an old or edited link.
    if (after !== undefined || replies !== undefined) staleCursor(outcome.error);
    throw outcome.error;
  }
  const { post, comments } = outcome;
  const locale = res.locals.locale;
  // What this person may do on the post (./write-routes.ts): a view with controls is made for this request alone.
  const actions =
    'page' in comments
      ? postActions(ctx, req, access, changes.tasks ?? access.tasks, postId, locale, replies)
      : undefined;
  const toView = () => toPostPageView(post, comments, { ...links, media, pageId, after, locale, actions });
  // The plain view is the same for every session served these answers: made once (./fragments).
  const plain = after === undefined && replies === undefined && !('missing' in comments) && actions === undefined;
  const first = 'page' in comments ? comments.page : undefined;
  const rendered = plain ? renderedPost(req.app, locale, post, first, toView) : renderPost(req.app, locale, toView);
  const name = access.name || locale.t('page.fallbackName', { id: pageId });
  res.render('post', {
    title: locale.t('post.documentTitle', { name, time: rendered.view.post.timeText }),
    page: { id: pageId, name },
    pageHref: rendered.view.pageHref,
    postId,
    body: rendered.body,
    viewers: 'viewers' in viewers.outcome ? locale.t('post.viewers', { count: viewers.outcome.viewers }) : undefined,
    missing: missingExtras(locale, req, 'error' in viewers.outcome, comments),
    live: access.live,
    liveSince: ctx.now(),
  });
}

/**
 * The post page's one line on the extras that failed or were late (docs/architecture.md#post-page), with this
 * same page again as the way to retry them; undefined when nothing is missing.
 */
function missingExtras(
  locale: Locale,
  req: Request,
  viewersMissing: boolean,
  comments: CommentsRead,
): { text: string; retry: string } | undefined {
  const what = [
    ...(viewersMissing ? [locale.t('post.missing.viewers')] : []),
    ...('missing' in comments ? [locale.t('post.missing.comments')] : []),
    ...('repliesMissing' in comments ? [locale.t('post.missing.replies')] : []),
  ];
  if (what.length === 0) return undefined;
  return { text: locale.t('post.missing', { what: locale.list(what, 'and') }), retry: ownPath(req.originalUrl) ?? '/' };
}

const COMMENTS_LINK: Say = { key: 'error.comments.badLink' };

/** `replies`: a comment of this post (`{post number}_{n}`); anything else is a changed link. */
function commentId(query: Request['query'], postId: string): string | undefined {
  const value = singleParam(query, 'replies', 80);
  if (value === undefined) return undefined;
  if (!commentIdSchema.safeParse(value).success || value.split('_')[0] !== postId.split('_')[1])
    throw new BadRequestError({ key: 'error.replies.badLink' });
  return value;
}

function pageLocals(
  ctx: AppContext,
  app: Application,
  locale: Locale,
  access: PageAccess,
  loaded: PageOutcome,
  settings: ViewSettings,
): object {
  const { details, feed, refusal, fallbackName } = loaded;
  // A view of a refusal's fallback (no cached answer to key it by) is made for this view alone.
  const page = renderedPage(app, locale, details, (d) => toPageView(d, fallbackName, { ...settings, locale }));
  const posts = feed
    ? renderedFeed(app, locale, feed, (f) => toFeedView(f, 'first', { ...settings, locale, pageId: access.pageId }))
    : undefined;
  // Details that could not be read are not "not given": the card alone, no details section.
  const noDetails = refusal !== undefined && details.name === undefined;
  return {
    title: page.view.name,
    page: page.view,
    card: page.card,
    about: noDetails ? undefined : page.details,
    posts: posts?.posts,
    // The feed needs a permission the person declined: the page shows what it can, and says so.
    feedBlocked: refusal ? feedBlocked(locale, access.pageId, refusal, noDetails) : undefined,
    live: feed !== undefined && access.live,
    // The stream replays changes after this moment: what this rendering has not seen.
    liveSince: ctx.now(),
  };
}

/**
 * What the feed section says instead of posts — the provider's own words for the person when it wrote
 * some (escaped by the template), else the permission in words — and the way to grant it, back to this
 * page after.
 */
function feedBlocked(
  locale: Locale,
  pageId: string,
  refusal: GraphApiError,
  noDetails: boolean,
): { text: string; theirs: boolean; askAgain: string } {
  // A refusal that names the permission reads best in our words for it; the provider's may name its identifier.
  const theirs =
    refusal.permission === undefined ? [refusal.userTitle, refusal.userMessage].filter(Boolean).join(': ') : '';
  return {
    text:
      theirs ||
      locale.t('page.feedBlocked', {
        what: noDetails ? 'both' : 'posts',
        permission: permissionWords(locale, refusal.permission ?? FEED_SCOPE),
      }),
    theirs: theirs !== '',
    askAgain: `/auth/login?rerequest=1&return_to=${encodeURIComponent(`/pages/${pageId}`)}`,
  };
}

const FEED_SCOPE = 'pages_read_engagement';

/** A Page's insights, as the page view: the session read once, the load, what it taught the session, the view. */
async function insights(ctx: AppContext, req: Request, res: Response): Promise<void> {
  const pageId = req.params.pageId as string;
  const access = ctx.connections.pageAccess(req, pageId);
  const token = pageTokenOrRedirect(ctx, req, res, access);
  if (!token) return;
  const { outcome, changes } = await loadPageInsights(ctx, access, token);
  ctx.connections.applyPageChanges(req, pageId, changes);
  if ('error' in outcome) throw outcome.error;
  const locale = res.locals.locale;
  const name = access.name || locale.t('page.fallbackName', { id: pageId });
  res.render('insights', {
    title: locale.t('insights.documentTitle', { name }),
    page: { id: pageId, name },
    ...(outcome.blocked
      ? { blocked: blockedView(outcome.blocked, pageId, locale) }
      : { charts: renderedInsights(req.app, locale, outcome.answer, (a) => toInsightsView(a, locale)).charts }),
  });
}

/**
 * The first feed page as a fragment (the posts partial, escaped as on the page), for the "new posts — Show"
 * button of a live page (docs/architecture.md#live-updates). Read like the page view, cache included, and
 * the same HTML for the same answer.
 */
async function freshPosts(ctx: AppContext, req: Request, res: Response, settings: ViewSettings): Promise<void> {
  const pageId = req.params.pageId as string;
  const access = ctx.connections.pageAccess(req, pageId);
  const token = pageTokenOrRedirect(ctx, req, res, access);
  if (!token) return;
  const read = await forPage(ctx, access, readPage(ctx, access, token));
  ctx.connections.applyPageChanges(req, pageId, read.changes);
  const [, feed] = bothOrDrop(ctx, access, read);
  const locale = res.locals.locale;
  res
    .type('html')
    .send(
      renderedFeed(req.app, locale, feed, (f) => toFeedView(f, 'first', { ...settings, locale, pageId })).posts.html,
    );
}

async function olderPosts(ctx: AppContext, req: Request, res: Response, settings: ViewSettings): Promise<void> {
  const pageId = req.params.pageId as string;
  const after = cursor(req.query, 'after', POSTS_LINK);
  const before = cursor(req.query, 'before', POSTS_LINK);
  const offset = feedOffset(req.query);
  if (!after === !before) throw new BadRequestError(POSTS_LINK);
  const access = ctx.connections.pageAccess(req, pageId);
  const token = pageTokenOrRedirect(ctx, req, res, access);
  if (!token) return;
  // The header card as on the page view, read alongside the feed: one round trip of latency.
  const [feed, read] = await Promise.all([
    forPage(ctx, access, ctx.graph.feed(token, pageId, { after, before }, admitReads(ctx, access))).catch(staleCursor),
    forPage(ctx, access, readDetails(ctx, access, token)).catch((err: unknown) => {
      // Details refused (a declined permission) still leave the posts worth showing, under the name alone.
      if (isPermissionError(err)) return { details: { id: pageId }, changes: {} };
      throw err;
    }),
  ]);
  ctx.connections.applyPageChanges(req, pageId, read.changes);
  const locale = res.locals.locale;
  const fallbackName = access.name || locale.t('page.fallbackName', { id: pageId });
  const page = renderedPage(req.app, locale, read.details, (d) => toPageView(d, fallbackName, { ...settings, locale }));
  res.render('feed', {
    title: locale.t('feed.olderTitle', { name: page.view.name }),
    page: page.view,
    card: page.card,
    feed: toFeedView(feed, 'older', { ...settings, locale, pageId, offset }),
  });
}

/**
 * The provider's "invalid parameter" (100) on a cursor the person brought in
 * the link: an old or edited link, not a fault of ours or the provider's.
 */
function staleCursor(err: unknown): never {
  if (err instanceof GraphApiError && err.graph.code === 100 && err.code === 'graph_invalid') {
    throw new BadRequestError({ key: 'error.feed.staleLink' });
  }
  throw err;
}

const POSTS_LINK: Say = { key: 'error.feed.badLink' };

/** A cursor from our own link, checked before any upstream call; `problem` says what a changed one was for. */
function cursor(query: Request['query'], name: string, problem: Say): string | undefined {
  const value = singleParam(query, name, MAX_CURSOR);
  if (value === undefined) return undefined;
  if (!cursorSchema.safeParse(value).success) throw new BadRequestError(problem);
  return value;
}

/** Posts a feed page can stand after: far more than anyone pages through, small enough to print. */
export const MAX_OFFSET = 100_000;

/**
 * Where a /feed page stands (`offset`: the posts before it), carried in our own links for "Posts 26–50".
 * Absent: the position is not shown. Not a small whole number: 400, as for a bad cursor.
 */
function feedOffset(query: Request['query']): number | undefined {
  const value = singleParam(query, 'offset', 10);
  if (value === undefined) return undefined;
  if (!/^\d{1,6}$/.test(value) || Number(value) > MAX_OFFSET)
    throw new BadRequestError({ key: 'error.param.offset', values: { max: MAX_OFFSET } });
  return Number(value);
}

/** The page token the session holds; without one, back to the picker (logged in) or an explanation (not). */
function pageTokenOrRedirect(ctx: AppContext, req: Request, res: Response, access: PageAccess): string | undefined {
  if (access.pageToken) return access.pageToken;
  if (!access.userToken) throw new NotConnectedError({ key: 'error.notConnected.page' });
  req.session.flash = { key: 'flash.chooseFirst' };
  res.redirect(303, ctx.config.pageId ? '/' : '/pages');
  return undefined;
}
