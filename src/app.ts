import path from 'node:path';
import express, { type Express, type Request } from 'express';
import helmet from 'helmet';
import { behindProxy, type Config } from './config';
import type { AppContext } from './context';
import { useRequestLogging } from './log/request-log';
import { useViews } from './http/views';
import { PROBE_PATHS, useProbes } from './http/probes';
import { authRoutes } from './auth/routes';
import { providerCallbackRoutes } from './auth/provider-callbacks';
import { pageRoutes, usePageRateLimits } from './pages/routes';
import { homeRoutes } from './site/home';
import { liveRoutes } from './live/routes';
import { WRITE_PATH, writeBody, writeRoutes } from './pages/write-routes';
import { publishRoutes } from './pages/publish-routes';
import { webhookRoutes } from './webhooks/routes';
import { privacyRoutes } from './site/privacy';
import { errorHandler, notFound } from './http/errors';
import { refusalInFront } from './http/refusal';
import { chooseLocale, languageRoutes } from './http/language';
import { isMessageKey } from './i18n/catalogs';
import { observeRequests } from './observe/requests';
import { csrfToken } from './session/csrf';
import { sessionMiddleware } from './session/middleware';
import { sessionLapses } from './session/lapse';
import { withoutQuery } from './web-url';

/** The project root, from src/ under ts-jest and from dist/ once built. */
const ROOT = path.resolve(__dirname, '..');

/**
 * Registers the middleware in order on what src/context.ts built; listens nowhere (src/server.ts does).
 * Order: metrics, the per-session limit's refusals, security headers, logging, static files, probes, language,
 * session, routes, 404, the error handler.
 */
export function createApp(ctx: AppContext): Express {
  const { config, sessions, logger } = ctx;
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  useViews(app);
  if (config.nodeEnv === 'production') app.set('view cache', true);
  // Pages are no-store and personal: an ETag (a SHA-1 of every body) would validate nothing. Static files keep theirs.
  app.set('etag', false);
  // Defaults for pages rendered before the session is read (an early error).
  app.locals.connected = false;
  app.locals.flash = undefined;
  app.locals.csrf = () => '';
  app.locals.userName = undefined;
  // FB_PAGE_ID pins one page: the header offers no "Switch page".
  app.locals.pagePinned = config.pageId !== undefined;

  const trustRequestId = behindProxy(config);
  const security = securityHeaders(config);
  // Mounted only when metrics or traces are on: every layer costs each request a match and a call.
  const observe = observeRequests(ctx.observer, ctx.tracing);
  if (observe) app.use(observe);
  // In front of the stack: a session over its limit costs no headers, log line, language, store read or rendering,
  // and its refusal is precomputed bytes; counted in the metrics above (docs/operations.md#a-burst-of-refusals).
  const refuse = refusalInFront({
    securityHeaders: security,
    locales: ctx.locales,
    logger,
    logRequests: config.logRequests,
    trustRequestId,
  });
  usePageRateLimits(app, ctx, refuse);
  app.use(security);
  useRequestLogging(app, logger, {
    trustRequestId,
    requests: config.logRequests,
    ignore: (req) => PROBE_PATHS.has(withoutQuery(req.url ?? '')),
  });
  app.use('/public', express.static(path.join(ROOT, 'public'), { maxAge: '1h', index: false, fallthrough: true }));
  // Before the session: the probes answer whatever the store does (docs/operations.md#probes-and-shutdown).
  useProbes(app, sessions, ctx.readiness);

  app.use((_req, res, next) => {
    // Every answer from here on may show session data: never kept by a browser or shared cache (Back after logout).
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // Once per request, before anything that renders: the deletion receipt is one of the provider callbacks' routes.
  app.use(chooseLocale(ctx.locales));
  // The provider's calls: no session is read and no cookie set: they carry none, and must not create one.
  if (config.webhookVerifyToken !== undefined) app.use('/webhooks', webhookRoutes(ctx, config.webhookVerifyToken));
  // The provider's server-to-server callbacks: no session read, no cookie set: they carry none, and must not create one.
  app.use('/auth', providerCallbackRoutes(ctx));
  app.use(sessionMiddleware(config, sessions, { storeOptional: needsNoStore }));
  app.use(sessionLapses(sessions, config, config.sessionIdleSec, ctx.now));
  // A reply's text has a body limit of its own, parsed before the app's 8 kB one (src/pages/write-routes.ts).
  app.post(`/pages${WRITE_PATH}`, writeBody());
  app.use(express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 20 }));
  app.use((req, res, next) => {
    // Locals every view may use; the CSRF token is made only when a form asks for it.
    res.locals.csrf = () => csrfToken(req);
    const signIn = ctx.signIns.current(req);
    res.locals.connected = signIn !== undefined;
    res.locals.userName = signIn?.userName;
    const flash = req.session.flash;
    // Said in this page's language; a key the catalogs no longer have (an older version's) is not shown.
    res.locals.flash = flash && isMessageKey(flash.key) ? res.locals.locale.t(flash.key, flash.values) : undefined;
    if (req.session.flash && req.method === 'GET') delete req.session.flash;
    next();
  });

  // The page views first, the busiest routes: a request is matched against each mounted router in turn, and
  // these paths are disjoint, so the order changes nothing else.
  app.use('/pages', pageRoutes(ctx));
  app.use('/pages', liveRoutes(ctx));
  app.use('/pages', writeRoutes(ctx));
  app.use('/pages', publishRoutes(ctx));
  app.use('/auth', authRoutes(ctx));
  app.use('/', homeRoutes(ctx));
  app.use('/', privacyRoutes(ctx));
  app.use('/', languageRoutes(ctx.locales, config.servedOverHttps));
  app.use(notFound);
  app.use(errorHandler(logger, ctx.signIns, ctx.locales));
  return app;
}

/** Pages shown signed out while the session store is down, rather than the 503 page: they read nothing personal that matters. */
function needsNoStore(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && (req.path === '/' || req.path === '/privacy');
}

/**
 * helmet with a CSP that has no inline scripts or styles, takes images only from here and FB_IMAGE_ORIGINS, lets a form start
 * the dialog redirect (form-action includes the provider's dialog origin),
 * and sends no referrer so the callback URL leaks nowhere.
 */
function securityHeaders(config: Config) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        // The provider's image hosts (FB_IMAGE_ORIGINS) and nothing else: the views show no other images.
        imgSrc: ["'self'", ...config.imageOrigins],
        // The provider's video hosts (FB_MEDIA_ORIGINS), for the videos of the post page, and nothing else.
        mediaSrc: ["'self'", ...config.mediaOrigins],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'", config.authUrl],
        frameAncestors: ["'none'"],
        ...(config.servedOverHttps ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    // HSTS only when we are really served over https.
    strictTransportSecurity: config.servedOverHttps ? { maxAge: 31536000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
}
