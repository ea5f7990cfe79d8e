/**
 * The provider's www host, as far as the app links to it: a Page (`/{page-id}`), a post
 * (`/{page-id}/posts/{n}`, the `permalink_url` the Graph API hands out) and the person's settings
 * (`/settings?tab=applications`, answered by the settings page). One origin serves both the Graph API and
 * these pages here, so a page is answered only to a browser's navigation — it asks for `text/html` and carries
 * no token — and every other request with such a path goes on to the Graph API, as before. Like the settings
 * page, only by the names the emulator is opened by (../hosts).
 */
import type { NextFunction, Request, Response } from 'express';
import type { Context } from '../context';
import { renderError, renderPage, setHtmlHeaders } from '../dialog/html';
import { knownHost } from '../hosts';
import type { SeedPost } from '../seed';
import type { PageState } from '../store/data';

/** Posts the Page view lists: its newest, like the top of a real Page. */
const PAGE_POSTS = 10;

/**
 * A plain middleware, not a Router with `:params`: a Router would decode every path (a `%` alone is then a
 * 500) and answer OPTIONS itself, where these paths must stay the Graph API's unless a browser asks for a page.
 */
export function wwwPages(ctx: Context) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET') return next();
    if (req.path === '/settings' && req.query.tab === 'applications') return res.redirect(302, '/settings/apps');
    const match = PATH_RE.exec(req.path);
    if (match === null || !browserNavigation(req)) return next();
    const page = ctx.data.page(match[1]!);
    if (page === undefined) return next();
    if (!knownHost(req.get('host'), ctx.port, ctx.clients.values(), ctx.hosts)) {
      return renderError(res, 403, 'problem.forbiddenTitle', 'problem.wwwOwnAddress');
    }
    setHtmlHeaders(res);
    if (match[2] === undefined) {
      const posts = page.feed.slice(0, PAGE_POSTS).map((post) => postView(page, post));
      return renderPage(res, 'www-page', { page: pageView(page), posts });
    }
    const post = page.feed.find((p) => p.id === `${page.id}_${match[2]!}`);
    if (post === undefined) return renderError(res, 404, 'problem.contentNotFoundTitle', 'problem.postNotFound');
    renderPage(res, 'www-post', { page: pageView(page), post: postView(page, post) });
  };
}

/** `/{page-id}` or `/{page-id}/posts/{n}`: digits only, so nothing needs decoding. */
const PATH_RE = /^\/(\d{1,32})(?:\/posts\/(\d{1,32}))?$/;

/** A browser's navigation asks for HTML and carries no credential; anything else is an API call. */
function browserNavigation(req: Request): boolean {
  return (
    (req.get('accept') ?? '').includes('text/html') &&
    req.get('authorization') === undefined &&
    req.query.access_token === undefined
  );
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
