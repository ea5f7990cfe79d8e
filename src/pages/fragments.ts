import fs from 'node:fs';
import path from 'node:path';
import ejs from 'ejs';
import type { Application } from 'express';
import type { CommentsPage, FeedResponse, InsightsAnswer, PageDetails, PostDetails } from '../graph/schemas';
import type { Locale } from '../i18n/locale';
import { RenderedHtml } from '../html';
import { templateOptions } from '../http/views';
import type { InsightsView } from './insights-view';
import type { PostPageView } from './post-page-view';
import type { FeedView } from './feed-view';
import type { PageView } from './page-view';

/**
 * What renders a cached answer — its view model and the HTML of its parts (views/partials) — made once per
 * answer and used by every view that shows it: the page view and the "new posts" fragment alike. A warm view
 * serves a cached answer, the same object on every hit, and formatting and rendering its 25 posts was the
 * largest part of a warm view's cost (docs/architecture.md#views).
 *
 * Each partial reads its view model and nothing else — no session, request or clock — so its HTML is right
 * for every session the answer is served to, escaped by the template exactly as an include would be. Kept per
 * language: a German and an English view of the same answer each get their own (docs/architecture.md#languages).
 * Weak: what renders an answer goes when the answer leaves the cache.
 */
export interface RenderedPage {
  view: PageView;
  card: RenderedHtml;
  details: RenderedHtml;
}

export interface RenderedFeed {
  view: FeedView;
  posts: RenderedHtml;
}

export interface RenderedInsights {
  view: InsightsView;
  charts: RenderedHtml;
}

type Rendered = RenderedPage | RenderedFeed | RenderedInsights;

/** Per answer, what renders it in each language it was shown in (by the Locale, one object per language). */
const rendered = new WeakMap<object, Map<Locale, Rendered>>();

/** The page's header card and details for its details answer, in `locale`: made the first time, the same after. */
export function renderedPage(
  app: Application,
  locale: Locale,
  details: PageDetails,
  toView: (details: PageDetails) => PageView,
): RenderedPage {
  return memo(details, locale, 'card', () => {
    const view = toView(details);
    return {
      view,
      card: renderPartial(app, locale, 'page-card', view),
      details: renderPartial(app, locale, 'page-details', view),
    };
  });
}

/** The posts of a feed answer, in `locale`: made the first time, the same after. */
export function renderedFeed(
  app: Application,
  locale: Locale,
  feed: FeedResponse,
  toView: (feed: FeedResponse) => FeedView,
): RenderedFeed {
  return memo(feed, locale, 'posts', () => {
    const view = toView(feed);
    return { view, posts: renderPartial(app, locale, 'posts', view) };
  });
}

/** The charts of an insights answer, in `locale`: made the first time, the same after. */
export function renderedInsights(
  app: Application,
  locale: Locale,
  answer: InsightsAnswer,
  toView: (answer: InsightsAnswer) => InsightsView,
): RenderedInsights {
  return memo(answer, locale, 'charts', () => {
    const view = toView(answer);
    return { view, charts: renderPartial(app, locale, 'insight-charts', view) };
  });
}

export interface RenderedPost {
  view: PostPageView;
  body: RenderedHtml;
}

/** By the post answer, then by its comments answer (the post answer itself when no comments were read), then by language. */
const renderedPosts = new WeakMap<object, WeakMap<object, Map<Locale, RenderedPost>>>();

/**
 * The post page's body (views/partials/post-page) for a post answer and its first comments answer, in `locale`,
 * as the page view's parts: made the first time, the same after, gone with the answers. Only for the view that
 * depends on nothing else (no later page of comments, no replies open): the warm case.
 */
export function renderedPost(
  app: Application,
  locale: Locale,
  post: PostDetails,
  comments: CommentsPage | undefined,
  toView: () => PostPageView,
): RenderedPost {
  let byComments = renderedPosts.get(post);
  if (byComments === undefined) renderedPosts.set(post, (byComments = new WeakMap()));
  let byLocale = byComments.get(comments ?? post);
  if (byLocale === undefined) byComments.set(comments ?? post, (byLocale = new Map<Locale, RenderedPost>()));
  const known = byLocale.get(locale);
  if (known !== undefined) return known;
  const made = renderPost(app, locale, toView);
  byLocale.set(locale, made);
  return made;
}

/** The post page's body for a view made for one request alone (a later page of comments, replies open). */
export function renderPost(app: Application, locale: Locale, toView: () => PostPageView): RenderedPost {
  const view = toView();
  return { view, body: renderPartial(app, locale, 'post-page', view) };
}

/** Answers of different parts are never the same object; the field tells the kinds apart. */
function memo<S extends Rendered>(answer: object, locale: Locale, field: keyof S, make: () => S): S {
  let languages = rendered.get(answer);
  const known = languages?.get(locale);
  if (known !== undefined && field in known) return known as S;
  const made = make();
  if (languages === undefined) {
    languages = new Map();
    rendered.set(answer, languages);
  }
  languages.set(locale, made);
  return made;
}

interface Partials {
  posts: FeedView;
  'post-page': PostPageView;
  'page-card': PageView;
  'page-details': PageView;
  'insight-charts': InsightsView;
}

/** The one local each partial reads, besides its language's `t` and `html`. */
const LOCAL: { [P in keyof Partials]: string } = {
  posts: 'feed',
  'post-page': 'view',
  'page-card': 'page',
  'page-details': 'page',
  'insight-charts': 'insights',
};

/**
 * views/partials/`partial` for `model`, as HTML: RenderedHtml, which `<%= %>` prints as it is
 * (src/http/views.ts).
 */
export function renderPartial<P extends keyof Partials>(
  app: Application,
  locale: Locale,
  partial: P,
  model: Partials[P],
): RenderedHtml {
  return new RenderedHtml(template(app, partial)({ [LOCAL[partial]]: model, t: locale.t, html: locale.html }));
}

const compiled = new Map<string, ejs.TemplateFunction>();

/**
 * The partial's compiled template, called directly as an include calls it (app.render's locals merging and
 * view lookup cost more than the partial itself on a cold view). Compiled once when the app caches views
 * (production), from the file each time otherwise, so an edited template shows at once in development.
 */
function template(app: Application, partial: keyof Partials): ejs.TemplateFunction {
  const file = path.join(app.get('views') as string, 'partials', `${partial}.ejs`);
  const known = compiled.get(file);
  if (known !== undefined) return known;
  // `cache` as the app's views: an include inside the partial (a comment's) is compiled once too.
  const { root, escape, cache } = templateOptions(app);
  const fn = ejs.compile(fs.readFileSync(file, 'utf8'), { filename: file, root, escape, cache });
  if (app.enabled('view cache')) compiled.set(file, fn);
  return fn;
}
