'use strict';
/**
 * The floor of `npm run bench`: a bare Express app that renders views/page.ejs
 * with the same view model the app renders — no session, no helmet, no
 * logging, no upstream call. What the stack can do on this machine at best.
 *
 * Env: PORT, GRAPH_URL, PAGE_ID, PAGE_TOKEN (the data is read once, at start).
 */
const path = require('node:path');
const express = require('express');
const { GraphClient } = require('../dist/graph/client');
const { toFeedView, toPageView } = require('../dist/pages/viewModel');

async function main() {
  const graph = new GraphClient({
    graphUrl: process.env.GRAPH_URL,
    apiVersion: 'v23.0',
    appId: '',
    appSecret: process.env.APP_SECRET ?? '',
    redirectUri: '',
    timeoutMs: 5000,
    now: Date.now,
  });
  const pageId = process.env.PAGE_ID;
  const [details, feed] = await Promise.all([graph.pageDetails(process.env.PAGE_TOKEN, pageId), graph.feed(process.env.PAGE_TOKEN, pageId)]);
  graph.close();
  const page = toPageView(details, '');
  const data = { title: page.name, page, feed: toFeedView(feed), connected: true, flash: undefined, csrf: () => 'floor-csrf-token-000000000000000' };

  const app = express();
  app.set('views', path.join(__dirname, '..', 'views'));
  app.set('view engine', 'ejs');
  app.set('view cache', true);
  app.get('/pages/:pageId', (_req, res) => res.render('page', data));
  const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('floor listening\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

main().catch((err) => {
  process.stderr.write(`floor: ${err.stack ?? err}\n`);
  process.exit(1);
});
