import type { Application } from 'express';
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

const rendered: { [F in keyof Fragments]: WeakMap<Fragments[F], string> } = {
  posts: new WeakMap(),
  pageCard: new WeakMap(),
  pageDetails: new WeakMap(),
};

/** views/partials/`partial` for `model`, as HTML: rendered the first time, remembered for the same model after. */
export async function fragment<F extends keyof Fragments>(
  app: Application,
  partial: F,
  model: Fragments[F],
): Promise<string> {
  const memo = rendered[partial] as WeakMap<Fragments[F], string>;
  const known = memo.get(model);
  if (known !== undefined) return known;
  const html = await new Promise<string>((resolve, reject) =>
    app.render(`partials/${partial}`, { [LOCAL[partial]]: model }, (err: Error | null, out?: string) =>
      err ? reject(err) : resolve(out ?? ''),
    ),
  );
  memo.set(model, html);
  return html;
}
