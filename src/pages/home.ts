import { Router } from 'express';
import type { AppContext } from '../context';

/** The home page: Connect page, or the pages this session has connected. */
export function homeRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/', (req, res) => {
    const conn = ctx.keeper.current(req);
    res.render('home', {
      title: 'Pagelight',
      pages: conn ? ctx.keeper.connectedPages(req) : [],
      configuredPageId: ctx.config.pageId,
      loggedOut: req.query.logged_out === '1',
      demo: ctx.config.demo,
    });
  });
  return router;
}
