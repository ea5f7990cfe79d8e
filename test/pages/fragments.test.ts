import express from 'express';
import { useViews } from '../../src/http/views';
import { fragment } from '../../src/pages/fragments';
import { imageFilter } from '../../src/pages/images';
import { toFeedView, toPageView } from '../../src/pages/viewModel';

/** Parts of the page view rendered once per view model (docs/architecture.md#views). */
const CDN = 'https://scontent.example-cdn.net';
const images = imageFilter([CDN]);

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
const models = () => ({
  feed: toFeedView(
    {
      data: [
        {
          id: '1_2',
          created_time: '2026-10-01T12:00:00+0000',
          message: '<script>window.__pwned=1</script> Rye & caraway, see https://example.com/a?b=1&c=2',
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
    { id: '1', name: 'Bakery "<b>"', category: 'Bakery', about: 'Bread & <i>butter</i>', website: 'javascript:x' },
    '',
    { images },
  ),
});

describe('fragment', () => {
  it.each([true, false])(
    'when a partial is rendered for a view model (view cache %s), then it is the HTML Express renders for it, escaped',
    async (viewCache) => {
      const app = appWith(viewCache);
      const { feed, page } = models();
      const posts = fragment(app, 'posts', feed).html;
      expect(posts).toBe(await rendered(app, 'partials/posts', { feed }));
      expect(posts).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt; Rye &amp; caraway');
      expect(posts).not.toContain('<script>');
      expect(posts).not.toContain('javascript:');
      expect(fragment(app, 'pageCard', page).html).toBe(await rendered(app, 'partials/pageCard', { page }));
      expect(fragment(app, 'pageDetails', page).html).toBe(await rendered(app, 'partials/pageDetails', { page }));
      expect(fragment(app, 'pageCard', page).html).toContain('Bakery &#34;&lt;b&gt;&#34;');
    },
  );

  it('when the same view model is shown again, then the HTML made the first time is used; another model gets its own', () => {
    const app = appWith(true);
    const { feed } = models();
    const first = fragment(app, 'posts', feed);
    expect(fragment(app, 'posts', feed)).toBe(first);
    const other = toFeedView({ data: [] }, 'first', { images, pageId: '1' });
    const empty = fragment(app, 'posts', other);
    expect(empty.html).not.toBe(first.html);
    expect(empty.html).not.toContain('post-1_2');
  });
});
