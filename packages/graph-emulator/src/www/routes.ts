/**
 * The provider's www host, as far as the app links to it: a Page (`/{page-id}`), a post
 * (`/{page-id}/posts/{n}`, the `permalink_url` the Graph API hands out) and the person's settings
 * (`/settings?tab=applications`, answered by the settings page). One origin serves both the Graph API and
 * these pages here, so a page is answered only to a browser's navigation — it asks for `text/html` and carries
 * no token — and every other request with such a path goes on to the Graph API, as before. Like the settings
 * page, only by the names the emulator is opened by (../hosts).
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Context } from '../context';
import { renderError, setHtmlHeaders } from '../dialog/html';
import { knownHost } from '../hosts';
import type { SeedPost } from '../seed';
import type { PageState } from '../store/data';

const ID_RE = /^\d{1,32}$/;
/** Posts the Page view lists: its newest, like the top of a real Page. */
const PAGE_POSTS = 10;

export function wwwRouter(ctx: Context): Router {
  const router = Router();
  router.get('/settings', (req, res, next) => {
    if (req.query.tab !== 'applications') return next();
    res.redirect(302, '/settings/apps');
  });
  router.get('/:pageId', browserOnly(ctx), (req, res, next) => {
    const page = pageOf(ctx, req.params.pageId);
    if (page === undefined) return next();
    setHtmlHeaders(res);
    res.render('www-page', {
      page: pageView(page),
      posts: page.feed.slice(0, PAGE_POSTS).map((post) => postView(page, post)),
    });
  });
  router.get('/:pageId/posts/:number', browserOnly(ctx), (req, res, next) => {
    const page = pageOf(ctx, req.params.pageId);
    if (page === undefined) return next();
    const post = page.feed.find((p) => p.id === `${page.id}_${String(req.params.number)}`);
    if (post === undefined) return renderError(res, 404, 'Content not found', 'This post is not on this Page.');
    setHtmlHeaders(res);
    res.render('www-post', { page: pageView(page), post: postView(page, post) });
  });
  return router;
}

/** A browser's navigation without a credential on a name the emulator is opened by; anything else is an API call. */
function browserOnly(ctx: Context) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const navigation =
      (req.get('accept') ?? '').includes('text/html') &&
      req.get('authorization') === undefined &&
      req.query.access_token === undefined;
    if (!navigation) return next('router');
    if (!knownHost(req.get('host'), ctx.port, ctx.clients.values())) {
      return renderError(res, 403, 'Forbidden', 'This page answers only on the emulator’s own address.');
    }
    next();
  };
}

function pageOf(ctx: Context, id: unknown): PageState | undefined {
  return typeof id === 'string' && ID_RE.test(id) ? ctx.data.page(id) : undefined;
}

function pageView(page: PageState): { id: string; name: string; category?: string; about?: string } {
  const text = (name: string) =>
    typeof page.fields.get(name) === 'string' ? String(page.fields.get(name)) : undefined;
  return { id: page.id, name: text('name') ?? `Page ${page.id}`, category: text('category'), about: text('about') };
}

function postView(page: PageState, post: SeedPost): { href: string; time: string; story?: string; lines: string[] } {
  const number = post.id.split('_')[1] ?? '';
  return {
    href: `/${page.id}/posts/${number}`,
    time: post.created_time.slice(0, 16).replace('T', ' ') + ' UTC',
    story: post.story,
    lines: (post.message ?? '').split(/\r?\n/).filter((line) => line !== ''),
  };
}
