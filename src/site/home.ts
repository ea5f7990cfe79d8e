import { Router } from 'express';
import type { AppContext } from '../context';
import { ownPath } from '../http/return-to';

/** The home page: Connect page; signed in, the Page(s) this session has connected, each a way in. */
export function homeRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/', (req, res) => {
    const conn = ctx.signIns.current(req);
    // Where Connect leads back to after a sign-out by Facebook: one of our own page paths; anything else
    // (repeated, too long, another site) is ignored rather than refused, since home must always open.
    const returnTo = ownPath(req.query.return_to);
    res.render('home', {
      title: res.locals.locale.t('home.documentTitle'),
      signedIn: conn !== undefined,
      // Named as the session knows them; a Page connected before its name was read is named by its id.
      pages: conn
        ? ctx.signIns.connectedPages(req).map((p) => ({
            id: p.id,
            name: p.name || res.locals.locale.t('page.fallbackName', { id: p.id }),
          }))
        : [],
      configuredPageId: ctx.config.pageId,
      loggedOut: req.query.logged_out === '1',
      demo: ctx.config.demo,
      connectHref: returnTo ? `/auth/login?return_to=${encodeURIComponent(returnTo)}` : '/auth/login',
    });
  });
  return router;
}
