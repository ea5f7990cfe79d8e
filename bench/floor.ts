/**
 * The floor of `npm run bench`: a bare Express app that renders views/page.ejs
 * with the same view model the app renders — no session, no helmet, no
 * logging, no upstream call. What the stack can do on this machine at best.
 *
 * With FLOOR_READS=each it is the cold floor: the same two reads upstream (the app's Graph client, keep-alive)
 * for every request, then the same rendering — what a cold view costs with nothing of the app around it.
 *
 * With POST_ID it is the post floor too: that post and its first comments read once (with FLOOR_READS=each, for
 * every request: the cold post floor), and `views/post.ejs` rendered from the same view model the app makes
 * (`toPostPageView`) on every request — the post page's work without the app.
 *
 * Env: PORT, GRAPH_URL, PAGE_ID, PAGE_TOKEN (comma-separated: taken in turn), APP_SECRET, FLOOR_READS, POST_ID.
 */
import fs from 'node:fs';
import path from 'node:path';
import ejs from 'ejs';
import express from 'express';
import { GraphClient } from '../src/graph/client';
import { RenderedHtml } from '../src/html';
import { englishLocale } from '../src/i18n/catalogs';
import { templateOptions, useViews, VIEWS_DIR } from '../src/http/views';
import { imageFilter } from '../src/pages/images';
import { toPostPageView } from '../src/pages/post-page-view';
import { toFeedView, type FeedView } from '../src/pages/feed-view';
import { toPageView, type PageView } from '../src/pages/page-view';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const graph = new GraphClient({
    graphUrl: required('GRAPH_URL'),
    apiVersion: 'v23.0',
    appId: '',
    appSecret: process.env.APP_SECRET ?? '',
    redirectUri: '',
    timeoutMs: 5000,
    now: Date.now,
  });
  const pageId = required('PAGE_ID');
  // PAGE_TOKEN: one token, or several (comma-separated) taken in turn, as the app's sessions each have their own.
  const tokens = required('PAGE_TOKEN').split(',');
  let turn = 0;
  const read = () => {
    const token = tokens[turn++ % tokens.length]!;
    return Promise.all([graph.pageDetails(token, pageId), graph.feed(token, pageId)]);
  };
  const [details, feed] = await read();
  const postId = process.env.POST_ID;
  const post = postId
    ? await Promise.all([graph.post(tokens[0]!, pageId, postId), graph.comments(tokens[0]!, pageId, postId)])
    : undefined;
  // FLOOR_READS=each: the cold floor, which reads the page upstream for every request as a cold view does.
  const readEach = process.env.FLOOR_READS === 'each';
  if (!readEach) graph.close();
  // The app's test processes allow the emulator's pictures (FB_IMAGE_ORIGINS): the floor shows them too.
  const images = imageFilter([new URL(required('GRAPH_URL')).origin]);
  const page = toPageView(details, '', { images });
  const data = {
    title: page.name,
    page,
    feed: toFeedView(feed, 'first', { images, pageId }),
    connected: true,
    pagePinned: false,
    userName: 'Ada Lovelace',
    // As the app renders a page that is not subscribed to webhooks (the bench asks for no pages_manage_metadata).
    live: false,
    liveSince: 0,
    flash: undefined,
    csrf: () => 'floor-csrf-token-000000000000000',
  };

  const app = express();
  // The app's view settings: views/, EJS, includes resolved from the views folder.
  useViews(app);
  app.set('view cache', true);
  // Everything rendered on every request, card, details and posts included (the app renders those once per
  // cached answer, src/pages/fragments.ts): each partial compiled once and called, which is what an include costs.
  const partial = (name: string) => {
    const file = path.join(VIEWS_DIR, 'partials', `${name}.ejs`);
    // `cache` as the app's views: an include inside the partial (a comment's) is compiled once too.
    const render = ejs.compile(fs.readFileSync(file, 'utf8'), templateOptions(app, file));
    // In English, as the app renders a page for a browser that asks for no other language.
    return (data: object) => new RenderedHtml(render({ ...data, t: english.t, html: english.html }));
  };
  const english = englishLocale();
  const [card, about, posts] = [partial('page-card'), partial('page-details'), partial('posts')];
  const render = (res: express.Response, view: { page: PageView; feed: FeedView }) =>
    res.render('page', {
      ...data,
      ...view,
      card: card({ page: view.page }),
      about: about({ page: view.page }),
      posts: posts({ feed: view.feed }),
    });
  app.get('/pages/:pageId', (_req, res, next) => {
    if (!readEach) return render(res, data);
    read().then(
      ([d, f]) =>
        render(res, { page: toPageView(d, '', { images }), feed: toFeedView(f, 'first', { images, pageId }) }),
      next,
    );
  });
  // The post page, as the app renders it, all of it on every request (the app makes its body once per cached
  // answer): the view model, the post-page partial and views/post.ejs around it.
  const postBody = partial('post-page');
  const renderPost = (res: express.Response, [details, comments]: NonNullable<typeof post>) => {
    const view = toPostPageView(details, { page: comments }, { images, media: images, pageId, locale: english });
    res.render('post', {
      ...data,
      title: `${page.name}: post`,
      page: { id: pageId, name: page.name },
      pageHref: view.pageHref,
      postId: details.id,
      body: postBody({ view }),
      viewers: undefined,
      missing: undefined,
    });
  };
  // With FLOOR_READS=each, the cold post floor: the post (its one batch) and its first comments read for every
  // request, in parallel, with the tokens in turn, as a cold post view reads them.
  app.get('/pages/:pageId/posts/:postId', (_req, res, next) => {
    if (!post || !postId) return res.status(404).end();
    if (!readEach) return renderPost(res, post);
    const token = tokens[turn++ % tokens.length]!;
    Promise.all([graph.post(token, pageId, postId), graph.comments(token, pageId, postId)]).then(
      (p) => renderPost(res, p),
      next,
    );
  });
  const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('floor listening\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

main().catch((err: unknown) => {
  process.stderr.write(`floor: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
