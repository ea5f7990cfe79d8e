import type { Express, Request, Response, Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context';
import { NotConnectedError } from '../errors';
import { GraphApiError } from '../graph/errors';
import { BUSINESS_SCOPE, INSIGHTS_SCOPE } from '../graph/provider';
import { commentIdSchema, cursorSchema, MAX_CURSOR, type FeedResponse, type PageList } from '../graph/schemas';
import { pageAndPostParams, pageIdField, pageRouter, parseInput, queryParam, refusal } from '../http/params';
import { ownPath } from '../http/return-to';
import { renderSpliced } from '../http/views';
import type { Refuse } from '../http/refusal';
import type { Locale, Say } from '../i18n/locale';
import type { PageAccess, UserAccess } from '../session/access';
import { requireCsrf } from '../session/csrf';
import { requestNumber } from '../session/sign-in';
import { sessionIdOf } from '../session/middleware';
import { save } from '../session/persist';
import { permissionWords } from '../words';
import { connectChosenPage } from './connect';
import { FEED_PARTS, INSIGHTS_PARTS, PAGE_PARTS, renderedAnswer, renderedPost, renderPost } from './fragments';
import { imageFilter } from './images';
import { loadPageInsights, type InsightsOutcome } from './insights-load';
import { blockedView, toInsightsView } from './insights-view';
import { SessionRateLimit } from './fairness';
import { listPages } from './cache-policy';
import { isPermissionError, loadFreshPosts, loadOlderPosts, loadPage, type PageOutcome } from './load';
import { loadPostPage, type CommentsRead, type PostPageOutcome } from './load-post';
import { asksFor } from './offered';
import { postActions } from './write-routes';
import { postManagement } from './post-manage-view';
import { composer } from './publish-routes';
import { MAX_QUERY, toPickerView } from './picker-view';
import { isFailure, pageRoute, type Load, type ViewStep } from './pipeline';
import { toPostPageView } from './post-page-view';
import { providerWeb, type ViewOptions } from './view-text';
import { toFeedView } from './feed-view';
import { toPageView } from './page-view';
import { loadScheduled, scheduledCount } from './scheduled';
import { scheduledPageView } from './scheduled-view';

/**
 * The routes that always read upstream, limited per session (the picker, older posts, a later page of a post's
 * comments or a comment's replies, connecting a page). Routes of the app in front of the stack (src/app.ts), so that
 * a session over its limit is refused by `refuse` before its headers, log line, language or session are worked
 * out: the refusals of a burst cost next to nothing and do not delay other people's views. Not a router on /pages:
 * every page view would enter it and leave it again (docs/performance.md#plain-settings-that-are-not-shortcuts).
 * Reads the cache may serve (the page, a post, insights) count at their first read upstream instead
 * (./fairness.ts). Connecting counts in a bucket of its own, with the same figure: a person who connects a few
 * pages keeps their reads of posts.
 */
export function usePageRateLimits(app: Express, ctx: AppContext, refuse: Refuse): void {
  const sessionOf = (req: Request) => sessionIdOf(req.headers.cookie, ctx.config);
  const limit = ctx.sessionRateLimit.middleware(sessionOf, requestNumber, refuse);
  app.get(['/pages', '/pages/:pageId/feed'], limit);
  app.get('/pages/:pageId/posts/:postId', (req, res, next) => {
    if (req.query.after === undefined && req.query.replies === undefined) next();
    else limit(req, res, next);
  });
  const connecting = new SessionRateLimit(ctx.config.sessionRateLimit);
  app.post('/pages/:pageId/connect', connecting.middleware(sessionOf, requestNumber, refuse));
}

/**
 * /pages: the picker, connecting a page, and the views of a page. Each view is a {@link pageRoute}: its input,
 * its load and its view; ./pipeline.ts runs the steps between, the same for all.
 */
export function pageRoutes(ctx: AppContext): Router {
  // Every :pageId is checked before anything else, a write's CSRF check included.
  const router = pageRouter();
  const settings: ViewSettings = {
    // Only images the CSP lets the browser load are rendered (docs/architecture.md#images).
    images: imageFilter(ctx.config.imageOrigins),
    // The provider's web links on the configured dialog origin: the emulator's www host in demo mode.
    web: providerWeb(ctx.config.authUrl),
    // Insights are offered only when the app asks for their permission (./offered.ts).
    insights: asksFor(ctx.config, INSIGHTS_SCOPE),
  };
  const media = imageFilter(ctx.config.mediaOrigins);
  // The page and the post first, the busiest: a request is matched against each route in turn, and the paths are
  // disjoint, so the order changes nothing else.
  router.get('/:pageId', pageRoute(ctx, { input: pageInput, load: pageLoad, view: pageView(settings) }));
  router.get(
    '/:pageId/posts/:postId',
    pageRoute(ctx, { input: postInput, load: loadPostPage, view: postView({ ...settings, media }) }),
  );
  router.get('/', (req, res) => picker(ctx, req, res, settings.images));
  router.post('/:pageId/connect', requireCsrf, (req, res) => connect(ctx, req, res));
  router.get(
    '/:pageId/feed',
    pageRoute(ctx, { input: olderPostsInput, load: loadOlderPosts, view: olderPostsView(settings) }),
  );
  router.get(
    '/:pageId/feed/fresh',
    pageRoute(ctx, { input: pageInput, load: loadFreshPosts, view: freshPostsView(settings) }),
  );
  router.get('/:pageId/insights', pageRoute(ctx, { input: pageInput, load: loadPageInsights, view: insightsView }));
  router.get('/:pageId/scheduled', pageRoute(ctx, { input: pageInput, load: loadScheduled, view: scheduledPageView }));
  return router;
}

/** The parts of every view's {@link ViewOptions} the configuration fixes: which images show, where links lead. */
type ViewSettings = Required<Pick<ViewOptions, 'images' | 'web' | 'insights'>>;

/**
 * The Page's card and details for its details answer, as every view under the card shows them: made once while
 * the page cache keeps the answer (./fragments `renderedAnswer`).
 */
function renderedPage(
  { ctx, req, locale }: Pick<ViewStep<unknown>, 'ctx' | 'req' | 'locale'>,
  settings: ViewSettings,
  details: PageOutcome['details'],
  fallbackName: string,
) {
  return renderedAnswer(
    req.app,
    locale,
    details,
    PAGE_PARTS,
    (d) => toPageView(d, fallbackName, { ...settings, locale }),
    ctx.pageCache.enabled,
  );
}

// The routes' inputs: one schema each, over params and query, read as one value.

const POSTS_LINK: Say = { key: 'error.feed.badLink' };
const COMMENTS_LINK: Say = { key: 'error.comments.badLink' };
const REPLIES_LINK: Say = { key: 'error.replies.badLink' };

/** A cursor from our own link, checked before any upstream call; `problem` says what a changed one was for. */
const cursor = (problem: Say) =>
  queryParam(MAX_CURSOR).refine((value) => cursorSchema.safeParse(value).success, refusal(problem));

/** Posts a feed page can stand after: far more than anyone pages through, small enough to print. */
export const MAX_OFFSET = 100_000;

/**
 * Where a /feed page stands (`offset`: the posts before it), carried in our own links for "Posts 26–50".
 * Absent: the position is not shown. Not a small whole number: 400, as for a bad cursor.
 */
const offset = queryParam(10)
  .refine(
    (value) => /^\d{1,6}$/.test(value) && Number(value) <= MAX_OFFSET,
    refusal({ key: 'error.param.offset', values: { max: MAX_OFFSET } }),
  )
  .transform(Number);

const pageInput = z.object({ params: z.object({ pageId: pageIdField }) }).transform(({ params }) => params);

/** Older or newer posts: exactly one of the cursors, and where the page stands when our link said. */
const olderPostsInput = z
  .object({
    params: z.object({ pageId: pageIdField }),
    query: z
      .object({
        after: cursor(POSTS_LINK).optional(),
        before: cursor(POSTS_LINK).optional(),
        offset: offset.optional(),
      })
      .refine(({ after, before }) => !after !== !before, refusal(POSTS_LINK)),
  })
  .transform(({ params, query }) => ({ ...params, ...query }));

/** A post of the page: `after`, a later page of its comments; `replies`, a comment of this post opened. */
const postInput = z
  .object({
    params: pageAndPostParams,
    query: z.object({
      after: cursor(COMMENTS_LINK).optional(),
      replies: queryParam(80)
        .refine((value) => commentIdSchema.safeParse(value).success, refusal(REPLIES_LINK))
        .optional(),
    }),
  })
  // A comment of this post is `{post number}_{n}`; anything else is a changed link.
  .refine(({ params, query }) => query.replies === undefined || sameNumber(query.replies, params.postId), {
    ...refusal(REPLIES_LINK),
    path: ['query', 'replies'],
  })
  .transform(({ params, query }) => ({ ...params, ...query }));

/** The comment's first number is the post's second: `{page id}_{post number}` and `{post number}_{n}`. */
function sameNumber(commentId: string, postId: string): boolean {
  return commentId.split('_')[0] === postId.split('_')[1];
}

const pickerInput = z.object({ query: z.object({ q: queryParam(MAX_QUERY).optional() }) });

/** The page view's load: the Page, and beside it how many posts it has scheduled, for a person who may publish. */
async function pageLoad(
  ctx: AppContext,
  access: PageAccess,
  token: string,
): Promise<Load<PageOutcome & { scheduled?: number | undefined }>> {
  const [page, scheduled] = await Promise.all([
    loadPage(ctx, access, token),
    scheduledCount(ctx, access, token).catch(() => undefined),
  ]);
  return isFailure(page.outcome) ? page : { outcome: { ...page.outcome, scheduled }, changes: page.changes };
}

// The views: each renders its load's outcome.

/** A Page: its header card and details, and its first posts or why they are not shown. */
const pageView =
  (settings: ViewSettings) =>
  (
    { ctx, req, res, access, locale }: ViewStep<unknown>,
    loaded: PageOutcome & { scheduled?: number | undefined },
  ): void => {
    const { details, feed, refusal: refused, fallbackName } = loaded;
    // A view of a refusal's fallback (no cached answer to key it by) is made for this view alone.
    const page = renderedPage({ ctx, req, locale }, settings, details, fallbackName);
    const posts = feed
      ? renderedAnswer(
          req.app,
          locale,
          feed,
          FEED_PARTS,
          (f) => toFeedView(f, 'first', { ...settings, locale, pageId: access.pageId }),
          ctx.pageCache.enabled,
        )
      : undefined;
    // Details that could not be read are not "not given": the card alone, no details section.
    const noDetails = refused !== undefined && details.name === undefined;
    renderSpliced(res, 'page', {
      title: page.view.name,
      page: page.view,
      card: page.card,
      about: noDetails ? undefined : page.details,
      posts: posts?.posts,
      // The feed needs a permission the person declined: the page shows what it can, and says so.
      feedBlocked: refused ? feedBlocked(locale, access.pageId, refused, noDetails) : undefined,
      live: feed !== undefined && access.live,
      // "N scheduled posts", for a person who may publish, when any (./scheduled.ts).
      scheduled: loaded.scheduled
        ? { text: locale.t('scheduled.link', { count: loaded.scheduled }), href: `/pages/${access.pageId}/scheduled` }
        : undefined,
      // The stream replays changes after this moment: what this rendering has not seen.
      liveSince: ctx.now(),
      // Publishing as the Page, for a person whose grant and role allow it (./publish-routes.ts).
      composer: composer(ctx, req, access, locale),
    });
  };

/**
 * What the feed section says instead of posts — the provider's own words for the person when it wrote
 * some (escaped by the template), else the permission in words — and the way to grant it, back to this
 * page after.
 */
function feedBlocked(
  locale: Locale,
  pageId: string,
  refused: GraphApiError,
  noDetails: boolean,
): { text: string; theirs: boolean; askAgain: string } {
  // A refusal that names the permission reads best in our words for it; the provider's may name its identifier.
  const theirs =
    refused.permission === undefined ? [refused.userTitle, refused.userMessage].filter(Boolean).join(': ') : '';
  return {
    text:
      theirs ||
      locale.t('page.feedBlocked', {
        what: noDetails ? 'both' : 'posts',
        permission: permissionWords(locale, refused.permission ?? FEED_SCOPE),
      }),
    theirs: theirs !== '',
    askAgain: `/auth/login?rerequest=1&return_to=${encodeURIComponent(`/pages/${pageId}`)}`,
  };
}

const FEED_SCOPE = 'pages_read_engagement';

/**
 * The first feed page as a fragment (the posts partial, escaped as on the page), for the "new posts — Show"
 * button of a live page (docs/architecture.md#live-updates): the same HTML as the page view's for the same answer.
 */
const freshPostsView =
  (settings: ViewSettings) =>
  ({ ctx, req, res, input, locale }: ViewStep<{ pageId: string }>, { feed }: { feed: FeedResponse }): void => {
    const { pageId } = input;
    const posts = renderedAnswer(
      req.app,
      locale,
      feed,
      FEED_PARTS,
      (f) => toFeedView(f, 'first', { ...settings, locale, pageId }),
      ctx.pageCache.enabled,
    );
    res.type('html').send(posts.posts.bytes);
  };

/** An older (or newer) page of posts, under the Page's header card. */
const olderPostsView =
  (settings: ViewSettings) =>
  (
    { ctx, req, res, access, input, locale }: ViewStep<{ pageId: string; offset?: number | undefined }>,
    { feed, details }: { feed: FeedResponse; details: PageOutcome['details'] },
  ): void => {
    const { pageId, offset } = input;
    const fallbackName = access.name || locale.t('page.fallbackName', { id: pageId });
    const page = renderedPage({ ctx, req, locale }, settings, details, fallbackName);
    renderSpliced(res, 'feed', {
      title: locale.t('feed.olderTitle', { name: page.view.name }),
      page: page.view,
      card: page.card,
      feed: toFeedView(feed, 'older', { ...settings, locale, pageId, offset }),
    });
  };

/** A post of its own: its body (made once for the plain view, ./fragments), its viewers, what is missing. */
const postView =
  (settings: ViewSettings & { media: ViewSettings['images'] }) =>
  (
    {
      ctx,
      req,
      res,
      access,
      input,
      locale,
    }: ViewStep<{ pageId: string; postId: string; after?: string; replies?: string }>,
    { post, comments, viewers }: PostPageOutcome,
  ): void => {
    const { pageId, postId, after, replies } = input;
    // What this person may do on the post (./write-routes.ts): a view with controls is made for this request alone.
    const actions =
      'page' in comments ? postActions(ctx, req, access, access.tasks, postId, locale, replies) : undefined;
    // Edit and Delete for the post itself (./post-manage-view.ts).
    const manage = postManagement(ctx, req, access, post, locale);
    const toView = () => toPostPageView(post, comments, { ...settings, pageId, after, locale, actions, manage });
    // The plain view is the same for every session served these answers: made once (./fragments).
    const plain =
      after === undefined &&
      replies === undefined &&
      !('missing' in comments) &&
      actions === undefined &&
      manage === undefined;
    const first = 'page' in comments ? comments.page : undefined;
    // Kept with the answers only while the page cache keeps them (./fragments `renderedAnswer`).
    const rendered =
      plain && ctx.pageCache.enabled
        ? renderedPost(req.app, locale, post, first, toView)
        : renderPost(req.app, locale, toView);
    const name = access.name || locale.t('page.fallbackName', { id: pageId });
    renderSpliced(res, 'post', {
      title: locale.t('post.documentTitle', { name, time: rendered.view.post.timeText }),
      page: { id: pageId, name },
      pageHref: rendered.view.pageHref,
      postId,
      body: rendered.body,
      viewers: 'viewers' in viewers ? locale.t('post.viewers', { count: viewers.viewers }) : undefined,
      missing: missingExtras(locale, req, 'missing' in viewers, comments),
      live: access.live,
      liveSince: ctx.now(),
    });
  };

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

/** A Page's insights: its charts, or what the person can do about there being none. */
function insightsView(
  { ctx, req, res, input, access, locale }: ViewStep<{ pageId: string }>,
  outcome: InsightsOutcome,
): void {
  const { pageId } = input;
  const name = access.name || locale.t('page.fallbackName', { id: pageId });
  renderSpliced(res, 'insights', {
    title: locale.t('insights.documentTitle', { name }),
    page: { id: pageId, name },
    ...(outcome.blocked
      ? { blocked: blockedView(outcome.blocked, pageId, locale) }
      : {
          charts: renderedAnswer(
            req.app,
            locale,
            outcome.answer,
            INSIGHTS_PARTS,
            (a) => toInsightsView(a, locale),
            ctx.pageCache.enabled,
          ).charts,
        }),
  });
}

// The picker and connecting: the person's side of the session, before any page is theirs here.

async function picker(ctx: AppContext, req: Request, res: Response, images: ViewSettings['images']): Promise<void> {
  const user = ctx.signIns.userAccess(req);
  if (!user.userToken) throw new NotConnectedError({ key: 'error.notConnected.choose' });
  if (ctx.config.pageId) {
    res.redirect(303, `/pages/${ctx.config.pageId}`);
    return;
  }
  const query = parseInput(pickerInput, { params: req.params, query: req.query }).query.q ?? '';
  // Declining the permission to list Pages is not "you manage no Pages": the picker says which it is.
  const list = await listPages(ctx, user, user.userToken, user.scopes).catch((err: unknown) => {
    if (isPermissionError(err)) return undefined;
    throw err;
  });
  const connected = new Set(user.pages.map((p) => p.id));
  const { locale } = res.locals;
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
  const user = ctx.signIns.userAccess(req);
  // Within the session's share of provider calls, as every read (docs/architecture.md#fairness-between-sessions).
  const changes = await ctx.concurrentReadLimit.run(user.sessionId, () =>
    connectChosenPage(ctx, user, pageId, req.log ?? ctx.logger),
  );
  ctx.signIns.applyPageChanges(req, pageId, changes);
  await save(req);
  res.redirect(303, `/pages/${pageId}`);
}
