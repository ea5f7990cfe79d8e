/**
 * Builds the emulator's Express app. Registration order is the architecture:
 * its own assets and test controls first (never logged, delayed or failed),
 * then logging and body parsing, the login dialog, and finally the Graph API
 * (with injected latency and failures) and one error handler.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { renderFile } from 'ejs';
import { createContext, type Context } from './context';
import { createControls } from './controls/api';
import { controlsRouter } from './controls/http';
import { renderError } from './dialog/html';
import { dialogRouter } from './dialog/routes';
import { GraphError } from './errors';
import { faultMiddleware } from './faults';
import { graphHandler } from './graph/dispatch';
import { graphHeaders, sendGraphError } from './respond';
import { logForm, logRequests, requestKind } from './log';
import { bodyParsers } from './params';
import { mediaRouter } from './media/routes';
import { settingsRouter } from './settings/routes';
import { wwwPages } from './www/routes';
import { oidcRouter } from './oidc/routes';
import type { EmulatorControls, EmulatorOptions } from './types';
import { providerViewsDir } from './views';

export interface BuiltEmulator {
  app: express.Express;
  controls: EmulatorControls;
  /** Internal: lets `startEmulator` stop timers on close. */
  ctx: Context;
}

export function buildEmulator(opts: EmulatorOptions): BuiltEmulator {
  const ctx = createContext(opts);
  const controls = createControls(ctx);
  // Checked by the control's own schema, so an option names its mistake as the control would.
  for (const scripted of opts.failNext ?? []) controls.failNext(scripted.n ?? 1, scripted.failure);
  const viewsDir = providerViewsDir();
  const css = readFileSync(path.join(viewsDir, 'dialog.css'));

  const app = express();
  app.disable('x-powered-by');
  // Every answer names the emulator, so an app or a test can tell it is not talking to the provider (README#production-guard).
  const product = `graph-emulator/${packageVersion(viewsDir)}`;
  app.use((_req, res, next) => {
    res.set(EMULATOR_HEADER, product);
    next();
  });
  app.set('query parser', 'simple');
  app.set('views', viewsDir);
  app.set('view engine', 'ejs');
  app.engine('ejs', renderFile as Parameters<typeof app.engine>[1]);

  app.get('/__assets/dialog.css', (_req, res) => {
    res.set({
      'Content-Type': 'text/css; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    });
    res.send(css);
  });
  // Browsers ask every origin for a favicon; answered here so it is neither
  // logged nor counted as an API call, and cannot consume a scripted failure.
  app.get('/favicon.ico', (_req, res) => {
    res.status(204).end();
  });
  // The CDN's pictures: not API calls, so neither logged, delayed nor failed.
  app.use(mediaRouter(ctx));
  if (opts.httpControls === true) app.use('/__emulator', controlsRouter(ctx, controls));
  // The person's own settings page: a browser page, not an API call, so neither logged nor failed.
  app.use(settingsRouter(ctx));
  // The www host's Page and post views the app's "View on Facebook" links reach: browser pages too.
  app.use(wwwPages(ctx));
  app.use(oidcRouter(ctx));

  app.use(logRequests(ctx.log, ctx.now));
  app.use(bodyParsers());
  app.use(logForm);
  app.use(dialogRouter(ctx));
  app.use(graphHeaders(ctx.appVersion, ctx.now));
  app.use(faultMiddleware(ctx.faults));
  app.use(graphHandler(ctx));
  app.use(errorHandler);
  return { app, controls, ctx };
}

/** The header every answer carries, naming the emulator and its version. */
export const EMULATOR_HEADER = 'X-Graph-Emulator';

/** The package's version, from the package.json beside its views/ folder. */
function packageVersion(viewsDir: string): string {
  const parsed: unknown = JSON.parse(readFileSync(path.join(path.dirname(viewsDir), 'package.json'), 'utf8'));
  const version = (parsed as { version?: unknown }).version;
  return typeof version === 'string' ? version : 'unknown';
}

/** Creates the emulator app (no listening); drive it with supertest or mount it. */
export function createEmulator(opts: EmulatorOptions): { app: express.Express; controls: EmulatorControls } {
  const { app, controls } = buildEmulator(opts);
  return { app, controls };
}

/** Body-parser errors carry a 4xx `status` and a `type`; anything else is our bug. */
function clientErrorStatus(err: unknown): number | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const { status, type } = err as { status?: unknown; type?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && typeof type === 'string' ? status : undefined;
}

function errorHandler(err: unknown, req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(err);
  const status = clientErrorStatus(err);
  if (!(err instanceof GraphError) && status === undefined) {
    console.error('[graph-emulator] unexpected error', err);
  }
  if (requestKind(req.path) === 'dialog') {
    renderError(
      res,
      status ?? 500,
      status === undefined ? 'problem.wrongTitle' : 'problem.invalidRequest',
      'problem.tryAgain',
    );
    return;
  }
  if (err instanceof GraphError) return sendGraphError(res, err);
  if (status !== undefined) {
    return sendGraphError(
      res,
      new GraphError({ code: 100, status, message: '(#100) The request body could not be read' }),
    );
  }
  sendGraphError(res, new GraphError({ code: 1, message: 'An unknown error occurred' }));
}
