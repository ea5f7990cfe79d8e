import express from 'express';
import { useViews } from '../../src/http/views';
import { FEED_PARTS, PAGE_PARTS, renderPartial, renderedAnswer } from '../../src/pages/fragments';
import { imageFilter } from '../../src/pages/images';
import { englishLocale } from '../../src/i18n/catalogs';
import { toFeedView } from '../../src/pages/feed-view';
import { toPageView } from '../../src/pages/page-view';
import type { FeedResponse, PageDetails } from '../../src/graph/schemas';
import { findAll, textOf } from '../support/dom';

/** Parts of the page view rendered once per cached answer (docs/architecture.md#views). */
const CDN = 'https://scontent.example-cdn.net';
const images = imageFilter([CDN]);
const english = englishLocale();

function appWith(viewCache: boolean): express.Express {
  const app = express();
  useViews(app);
  if (viewCache) app.set('view cache', true);
  return app;
}

/** The partial as Express renders it: what an include in a view would print. */
function rendered(app: express.Express, view: string, locals: object): Promise<string> {
  return new Promise((resolve, reject) =>
    app.render(view, locals, (err: Error | null, html?: string) => (err ? reject(err) : resolve(html ?? ''))),
  );
}

/** Fresh view models: the HTML is remembered per model object. */
/** Words that look like markup, which the page must show as words. */
const HOSTILE = '<script>window.__pwned=1</script> Rye & caraway,';
const HOSTILE_NAME = 'Bakery "<b>"';
const models = () => ({
  feed: toFeedView(
    {
      data: [
        {
          id: '1_2',
          created_time: '2026-10-01T12:00:00+0000',
          message: `${HOSTILE} see https://example.com/a?b=1&c=2`,
          full_picture: `${CDN}/p.jpg`,
          permalink_url: 'javascript:alert(1)',
        },
      ],
      paging: { cursors: { before: 'b', after: 'a' }, next: true },
    },
    'first',
    { images, pageId: '1' },
  ),
  page: toPageView(
    { id: '1', name: HOSTILE_NAME, category: 'Bakery', about: 'Bread & <i>butter</i>', website: 'javascript:x' },
    '',
    { images },
  ),
});

describe('renderPartial', () => {
  it.each([true, false])(
    'when a partial is rendered for a view model (view cache %s), then it is the HTML Express renders for it, escaped',
    async (viewCache) => {
      const app = appWith(viewCache);
      const { feed, page } = models();
      const posts = renderPartial(app, english, 'posts', feed).html;
      expect(posts).toBe(await rendered(app, 'partials/posts', { feed }));
      expect(textOf(posts)).toContain(HOSTILE);
      expect(findAll(posts, 'script')).toEqual([]);
      expect(posts).not.toContain('javascript:');
      expect(renderPartial(app, english, 'page-card', page).html).toBe(
        await rendered(app, 'partials/page-card', { page }),
      );
      expect(renderPartial(app, english, 'page-details', page).html).toBe(
        await rendered(app, 'partials/page-details', { page }),
      );
      expect(textOf(renderPartial(app, english, 'page-card', page).html)).toContain(HOSTILE_NAME);
    },
  );
});

describe('renderedAnswer: one memo from a cached answer to what renders it', () => {
  const feedAnswer = (): FeedResponse => ({
    data: [{ id: '1_2', created_time: '2026-10-01T12:00:00+0000', message: 'Rye & caraway' }],
  });
  const detailsAnswer = (): PageDetails => ({ id: '1', name: 'Bakery', category: 'Bakery' });

  it('when the same answer is shown again, then the view model and HTML made the first time are used; another answer gets its own', () => {
    const app = appWith(true);
    const answer = feedAnswer();
    const toView = jest.fn((f: FeedResponse) => toFeedView(f, 'first', { images, pageId: '1' }));
    const first = renderedAnswer(app, english, answer, FEED_PARTS, toView, true);
    expect(renderedAnswer(app, english, answer, FEED_PARTS, toView, true)).toBe(first);
    expect(first.posts).toBe(renderedAnswer(app, english, answer, FEED_PARTS, toView, true).posts);
    expect(toView).toHaveBeenCalledTimes(1);
    const empty = renderedAnswer(app, english, { data: [] }, FEED_PARTS, toView, true);
    expect(empty.posts.html).not.toBe(first.posts.html);
    expect(empty.posts.html).not.toContain('post-1_2');
    expect(toView).toHaveBeenCalledTimes(2);
  });

  it("when a page's details answer is shown, then its card and details are the partials' HTML for its view model, made once", async () => {
    const app = appWith(true);
    const answer = detailsAnswer();
    const shown = renderedAnswer(app, english, answer, PAGE_PARTS, (d) => toPageView(d, '', { images }), true);
    expect(shown.card.html).toBe(await rendered(app, 'partials/page-card', { page: shown.view }));
    expect(shown.details.html).toBe(await rendered(app, 'partials/page-details', { page: shown.view }));
    expect(renderedAnswer(app, english, answer, PAGE_PARTS, () => toPageView({ id: '2' }, '', { images }), true)).toBe(
      shown,
    );
  });

  it('when the answer is not kept (the page cache is off), then each view makes its own, the same HTML, and nothing is kept', () => {
    const app = appWith(true);
    const answer = feedAnswer();
    const toView = jest.fn((f: FeedResponse) => toFeedView(f, 'first', { images, pageId: '1' }));
    const once = renderedAnswer(app, english, answer, FEED_PARTS, toView, false);
    const again = renderedAnswer(app, english, answer, FEED_PARTS, toView, false);
    expect(again).not.toBe(once);
    expect(again.posts.html).toBe(once.posts.html);
    expect(toView).toHaveBeenCalledTimes(2);
    // Nothing was kept for it: a later kept view makes its own too.
    renderedAnswer(app, english, answer, FEED_PARTS, toView, true);
    expect(toView).toHaveBeenCalledTimes(3);
  });
});
