import fs from 'node:fs';
import path from 'node:path';
import ejs from 'ejs';
import type { Application } from 'express';
import type { CommentsPage, PostDetails } from '../graph/schemas';
import type { Locale } from '../i18n/locale';
import { KeptHtml, RenderedHtml } from '../html';
import { templateOptions } from '../http/views';
import type { InsightsView } from './insights-view';
import type { PostPageView } from './post-page-view';
import type { FeedView } from './feed-view';
import type { PageView } from './page-view';

/** The partials that show an answer, by the field their HTML is kept under: a Page's details answer. */
export const PAGE_PARTS = { card: 'page-card', details: 'page-details' } as const;
/** A feed answer's posts. */
export const FEED_PARTS = { posts: 'posts' } as const;
/** An insights answer's charts. */
export const INSIGHTS_PARTS = { charts: 'insight-charts' } as const;

/** The partials whose view model is `V`. */
type PartialOf<V> = { [P in keyof Partials]: Partials[P] extends V ? P : never }[keyof Partials];

/** An answer's view model, and the HTML of each of its parts by field, kept with its bytes (src/html.ts). */
export type RenderedAnswer<V, F extends string> = { view: V } & { [K in F]: KeptHtml };

/** Per answer, what renders it in each language it was shown in (by the Locale, one object per language). */
const rendered = new WeakMap<object, Map<Locale, Made>>();
interface Made {
  parts: object;
  made: unknown;
}

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
 *
 * Kept only for an answer the page cache keeps (`kept`): with the cache off every answer is shown once, and
 * its HTML held in the WeakMap past the request was copied by each young-generation collection, twice the
 * bytes promoted per collection in a cold view (docs/performance.md#what-a-cold-view-keeps).
 *
 * `renderedAnswer`: what renders `answer` in `locale`, its view model and the HTML of `parts` for it, made the
 * first time, the same after.
 */
export function renderedAnswer<A extends object, V, F extends string>(
  app: Application,
  locale: Locale,
  answer: A,
  parts: Readonly<Record<F, PartialOf<V>>>,
  toView: (answer: A) => V,
  kept: boolean,
): RenderedAnswer<V, F> {
  let languages = kept ? rendered.get(answer) : undefined;
  const known = languages?.get(locale);
  // Answers of different parts are never the same object; `parts` tells the kinds apart all the same.
  if (known !== undefined && known.parts === parts) return known.made as RenderedAnswer<V, F>;
  const view = toView(answer);
  const made = { view } as RenderedAnswer<V, F>;
  for (const field in parts) {
    const partial = parts[field];
    const html = renderPartial(app, locale, partial, view as Partials[typeof partial]);
    (made as Record<F, KeptHtml>)[field] = new KeptHtml(html.html);
  }
  if (!kept) return made;
  if (languages === undefined) rendered.set(answer, (languages = new Map<Locale, Made>()));
  languages.set(locale, { parts, made });
  return made;
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
  made.body = new KeptHtml(made.body.html);
  byLocale.set(locale, made);
  return made;
}

/** The post page's body for a view made for one request alone (a later page of comments, replies open). */
export function renderPost(app: Application, locale: Locale, toView: () => PostPageView): RenderedPost {
  const view = toView();
  return { view, body: renderPartial(app, locale, 'post-page', view) };
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
  const fn = ejs.compile(fs.readFileSync(file, 'utf8'), templateOptions(app, file));
  if (app.enabled('view cache')) compiled.set(file, fn);
  return fn;
}
