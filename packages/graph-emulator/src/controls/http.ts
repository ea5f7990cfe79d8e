/**
 * The test controls over HTTP, under `/__emulator/*`, so a separately started
 * emulator (npm run provider, the browser test, the benchmark) can be driven
 * too. These endpoints have no authentication, so they are mounted only
 * when asked for (`httpControls: true`), answer only a loopback Host (a page
 * on another site that rebinds its DNS name to 127.0.0.1 still sends its own
 * name), and take POST and PUT bodies only as JSON (a cross-site form or `text/plain`
 * fetch cannot send that without a CORS preflight, which is never granted).
 */
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Context } from '../context';
import { isSettablePageField } from '../store/data';
import type { Seed } from '../seed';
import type { EmulatorControls } from '../types';
import { activityHandlers } from './activity-http';
import { CONTROL_ROUTES, type ControlHandlers, type ControlRoute } from './routes';
import { describeZodError } from '../zod-message';
import { loopbackHost } from '../hosts';

export function controlsRouter(ctx: Context, controls: EmulatorControls): Router {
  const router = Router();
  router.use((req, res, next) => {
    if (!loopbackHost(req.get('host'), ctx.port, ctx.hosts)) {
      res.status(403).json({
        error:
          'The emulator controls answer only on a loopback address (localhost, 127.0.0.1, [::1]) ' +
          'and the host names it was opened to (the hosts option, EMULATOR_HOSTS)',
      });
      return;
    }
    if (
      (req.method === 'POST' || req.method === 'PUT') &&
      !/^application\/json\s*(;|$)/i.test(req.get('content-type') ?? '')
    ) {
      res.status(415).json({ error: 'The emulator controls take POST bodies as Content-Type: application/json' });
      return;
    }
    next();
  });
  router.use(express.json({ limit: '256kb' }));
  const handlers = controlHandlers(ctx, controls);
  for (const [id, route] of Object.entries(CONTROL_ROUTES) as [keyof ControlHandlers, ControlRoute][]) {
    mount(router, route, handlers[id] as (input: unknown) => unknown);
  }
  router.use((_req, res) => {
    res.status(404).json({ error: 'Unknown emulator control' });
  });
  router.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    void _next;
    res.status(400).json({ error: controlErrorMessage(err) });
  });
  return router;
}

/** One route of the table: its body and query parsed by its schemas (a refusal is a 400), then its handler. */
function mount(router: Router, route: ControlRoute, handle: (input: unknown) => unknown): void {
  router[route.method](route.path, async (req, res) => {
    const input = {
      body: route.body?.parse(req.body === undefined ? {} : req.body),
      query: route.query?.parse(req.query),
      params: req.params,
    };
    const answer = await handle(input);
    if (route.status === 204) res.status(204).end();
    else res.status(route.status).json(answer);
  });
}

function controlHandlers(ctx: Context, controls: EmulatorControls): ControlHandlers {
  return {
    issueToken: ({ body }) => controls.issueToken(body),
    expireTokens: ({ body }) => ({ count: controls.expireTokens(body) }),
    revokeTokens: ({ body }) => {
      // An empty body is a mistake, not "every token": name what to revoke.
      if (body.userId === undefined && body.pageId === undefined && body.token === undefined) {
        throw new Error('body: name the tokens to revoke with userId, pageId or token');
      }
      return { count: controls.revokeTokens(body) };
    },
    setLatency: ({ body }) => controls.setLatency(body.ms),
    failNext: ({ body: { n, failure, match } }) => {
      const withMatch =
        match !== undefined && failure !== null && typeof failure === 'object' ? { ...failure, match } : failure;
      controls.failNext(n, withMatch as Parameters<EmulatorControls['failNext']>[1]);
    },
    pendingFailures: () => ({ data: controls.pendingFailures() }),
    clearFailures: () => ({ count: controls.clearFailures() }),
    setRateLimit: ({ body }) => controls.setRateLimit(body),
    clearRateLimit: () => controls.setRateLimit(null),
    setEmptyFeedPages: ({ body }) => controls.setEmptyFeedPages(body.positions),
    emptyFeedPages: () => ({ positions: ctx.emptyFeedPages }),
    setPageFields: ({ body, params }) => {
      const pageId = String(params.id);
      // Check everything first so a bad field leaves the page untouched.
      if (ctx.data.page(pageId) === undefined) throw new Error(`Unknown page ${pageId}`);
      const bad = Object.keys(body).find((f) => !isSettablePageField(f));
      if (bad !== undefined) throw new Error(`Field ${bad} cannot be set`);
      for (const [field, value] of Object.entries(body)) controls.setPageField(pageId, field, value);
    },
    setRole: ({ body }) => controls.setRole(body.userId, body.pageId, body.tasks),
    refuseMetric: ({ body }) => controls.refuseMetric(body.metric),
    removedFields: () => ({ fields: controls.removedFields() }),
    setRemovedFields: ({ body }) => controls.setRemovedFields(body.fields),
    clearRemovedFields: () => controls.setRemovedFields([]),
    setAppCreated: ({ body }) => controls.setAppCreated(body.day, body.clientId),
    clock: () => controls.clock(),
    moveClock: ({ body }) => controls.moveClock(body),
    reset: () => controls.reset(),
    seed: () => seedSummary(ctx),
    // One of the two is given (the schema's refinement); a whole seed is checked by loadSeed, as a seed file is.
    loadSeed: ({ body }) => controls.loadSeed(body.name ?? (body.seed as unknown as Seed)),
    snapshot: () => controls.snapshot(),
    requestLog: () => ({ data: controls.requestLog }),
    clearLog: () => controls.clearLog(),
    calls: ({ query }) => ({ count: controls.calls(query) }),
    removeApp: async ({ body }) => controls.removeApp(body),
    callbackDeliveries: () => ({ data: controls.callbackDeliveries() }),
    ...activityHandlers(controls),
  };
}

function controlErrorMessage(err: unknown): string {
  if (err instanceof z.ZodError) return describeZodError(err);
  if (err instanceof Error) return err.message;
  return 'Invalid request';
}

/** Ids and counts only: never secrets or tokens. */
function seedSummary(ctx: Context): unknown {
  return {
    name: ctx.seedName,
    clients: [...ctx.clients.values()].map((c) => ({
      clientId: c.clientId,
      name: c.name,
      redirectUri: c.redirectUri,
      ...(c.deauthorizeUrl !== undefined ? { deauthorizeUrl: c.deauthorizeUrl } : {}),
      ...(c.dataDeletionUrl !== undefined ? { dataDeletionUrl: c.dataDeletionUrl } : {}),
    })),
    users: ctx.data.allUsers().map((u) => ({ id: u.id, name: u.name, pages: u.roles.map((r) => r.pageId) })),
    pages: ctx.data.allPages().map((p) => ({ id: p.id, name: p.fields.get('name'), posts: p.feed.length })),
  };
}
