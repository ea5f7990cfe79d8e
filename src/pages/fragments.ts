import fs from 'node:fs';
import path from 'node:path';
import ejs from 'ejs';
import type { Application } from 'express';
import { RenderedHtml, templateOptions } from '../http/views';
import type { FeedView, PageView } from './viewModel';

/**
 * Parts of the page view rendered once per view model: the header card, the
 * details and the posts (views/partials). A warm view serves a cached answer,
 * whose view model is the same object on every hit (./routes viewOf), and
 * rendering its 25 posts was the largest part of a warm view's cost
 * (docs/architecture.md#views).
 *
 * Each partial reads its view model and nothing else — no session, request
 * or clock — so its HTML is right for every session the answer is served to,
 * escaped by the template exactly as an include would be. Weak: the HTML goes
 * when the answer leaves the cache.
 */
interface Fragments {
  posts: FeedView;
  pageCard: PageView;
  pageDetails: PageView;
}

/** The one local each partial reads. */
const LOCAL: { [F in keyof Fragments]: string } = { posts: 'feed', pageCard: 'page', pageDetails: 'page' };

const rendered: { [F in keyof Fragments]: WeakMap<Fragments[F], RenderedHtml> } = {
  posts: new WeakMap(),
  pageCard: new WeakMap(),
  pageDetails: new WeakMap(),
};

/**
 * views/partials/`partial` for `model`, as HTML: rendered the first time, remembered for the same model after.
 * RenderedHtml, which `<%= %>` prints as it is (src/http/views.ts).
 */
export function fragment<F extends keyof Fragments>(app: Application, partial: F, model: Fragments[F]): RenderedHtml {
  const memo = rendered[partial] as WeakMap<Fragments[F], RenderedHtml>;
  let html = memo.get(model);
  if (html === undefined)
    memo.set(model, (html = new RenderedHtml(template(app, partial)({ [LOCAL[partial]]: model }))));
  return html;
}

const compiled = new Map<string, ejs.TemplateFunction>();

/**
 * The partial's compiled template, called directly as an include calls it (app.render's locals merging and
 * view lookup cost more than the partial itself on a cold view). Compiled once when the app caches views
 * (production), from the file each time otherwise, so an edited template shows at once in development.
 */
function template(app: Application, partial: keyof Fragments): ejs.TemplateFunction {
  const file = path.join(app.get('views') as string, 'partials', `${partial}.ejs`);
  const known = compiled.get(file);
  if (known !== undefined) return known;
  const { root, escape } = templateOptions(app);
  const fn = ejs.compile(fs.readFileSync(file, 'utf8'), { filename: file, root, escape });
  if (app.enabled('view cache')) compiled.set(file, fn);
  return fn;
}
