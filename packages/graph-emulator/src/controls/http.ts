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
import { activityRouter } from './activity-http';
import {
  appCreatedSchema,
  clockSchema,
  emptyFeedPagesSchema,
  failSchema,
  issueTokenSchema,
  latencySchema,
  rateLimitSchema,
  refuseMetricSchema,
  removeAppSchema,
  removedFieldsSchema,
  roleSchema,
  revokeSchema,
  seedSchema,
  tokenFilterSchema,
  wholeSeedSchema,
} from './schemas';
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
  const body = (req: Request): unknown => (req.body === undefined ? {} : req.body);

  router.post('/tokens/expire', (req, res) => {
    res.json({ count: controls.expireTokens(tokenFilterSchema.parse(body(req))) });
  });
  router.post('/tokens/revoke', (req, res) => {
    const filter = revokeSchema.parse(body(req));
    // An empty body is a mistake, not "every token": name what to revoke.
    if (filter.userId === undefined && filter.pageId === undefined && filter.token === undefined) {
      throw new Error('body: name the tokens to revoke with userId, pageId or token');
    }
    res.json({ count: controls.revokeTokens(filter) });
  });
  router.post('/tokens', (req, res) => {
    res.status(201).json(controls.issueToken(issueTokenSchema.parse(body(req))));
  });
  router.post('/latency', (req, res) => {
    controls.setLatency(latencySchema.parse(body(req)).ms);
    res.status(204).end();
  });
  router.post('/fail', (req, res) => {
    const { n, failure, match } = failSchema.parse(body(req));
    const withMatch =
      match !== undefined && failure !== null && typeof failure === 'object' ? { ...failure, match } : failure;
    controls.failNext(n, withMatch as Parameters<EmulatorControls['failNext']>[1]);
    res.status(204).end();
  });
  router.get('/fail', (_req, res) => {
    res.json({ data: controls.pendingFailures() });
  });
  router.delete('/fail', (_req, res) => {
    res.json({ count: controls.clearFailures() });
  });
  router.post('/rate-limit', (req, res) => {
    controls.setRateLimit(rateLimitSchema.parse(body(req)));
    res.status(204).end();
  });
  router.delete('/rate-limit', (_req, res) => {
    controls.setRateLimit(null);
    res.status(204).end();
  });
  router.put('/feed/empty-pages', (req, res) => {
    controls.setEmptyFeedPages(emptyFeedPagesSchema.parse(body(req)).positions);
    res.status(204).end();
  });
  router.get('/feed/empty-pages', (_req, res) => {
    res.json({ positions: ctx.emptyFeedPages });
  });
  router.post('/pages/:id', (req, res) => {
    const fields = z.record(z.string(), z.unknown()).parse(body(req));
    const pageId = String(req.params.id);
    // Check everything first so a bad field leaves the page untouched.
    if (ctx.data.page(pageId) === undefined) throw new Error(`Unknown page ${pageId}`);
    const bad = Object.keys(fields).find((f) => !isSettablePageField(f));
    if (bad !== undefined) throw new Error(`Field ${bad} cannot be set`);
    for (const [field, value] of Object.entries(fields)) controls.setPageField(pageId, field, value);
    res.status(204).end();
  });
  router.post('/roles', (req, res) => {
    const { userId, pageId, tasks } = roleSchema.parse(body(req));
    controls.setRole(userId, pageId, tasks);
    res.status(204).end();
  });
  router.post('/insights/refuse', (req, res) => {
    controls.refuseMetric(refuseMetricSchema.parse(body(req)).metric);
    res.status(204).end();
  });
  router.get('/removed-fields', (_req, res) => {
    res.json({ fields: controls.removedFields() });
  });
  router.put('/removed-fields', (req, res) => {
    controls.setRemovedFields(removedFieldsSchema.parse(body(req)).fields);
    res.status(204).end();
  });
  router.delete('/removed-fields', (_req, res) => {
    controls.setRemovedFields([]);
    res.status(204).end();
  });
  router.put('/app-created', (req, res) => {
    const { day, clientId } = appCreatedSchema.parse(body(req));
    controls.setAppCreated(day, clientId);
    res.status(204).end();
  });
  router.get('/clock', (_req, res) => {
    res.json(controls.clock());
  });
  router.post('/clock', (req, res) => {
    res.json(controls.moveClock(clockSchema.parse(body(req))));
  });
  router.post('/reset', (_req, res) => {
    controls.reset();
    res.status(204).end();
  });
  router.get('/log', (_req, res) => {
    res.json({ data: controls.requestLog });
  });
  router.delete('/log', (_req, res) => {
    controls.clearLog();
    res.status(204).end();
  });
  router.get('/calls', (req, res) => {
    const q = z
      .object({
        method: z.string().optional(),
        path: z.string().optional(),
        tokenKind: z.enum(['user', 'page', 'app', 'unknown']).optional(),
      })
      .parse(req.query);
    const filter = { ...q, ...(q.tokenKind !== undefined ? { tokenKind: q.tokenKind } : {}) };
    res.json({ count: controls.calls(filter) });
  });
  router.post('/apps/remove', async (req, res) => {
    res.json(await controls.removeApp(removeAppSchema.parse(body(req))));
  });
  router.get('/callbacks', (_req, res) => {
    res.json({ data: controls.callbackDeliveries() });
  });
  router.get('/seed', (_req, res) => {
    res.json(seedSummary(ctx));
  });
  router.put('/seed', (req, res) => {
    const given = body(req);
    // `{"seed": …}` is a whole seed; anything else is read as `{"name": …}`, whose refusals name `name`.
    if (given !== null && typeof given === 'object' && 'seed' in given) {
      controls.loadSeed(wholeSeedSchema.parse(given).seed as unknown as Seed);
    } else {
      controls.loadSeed(seedSchema.parse(given).name);
    }
    res.status(204).end();
  });
  router.get('/snapshot', (_req, res) => {
    res.json(controls.snapshot());
  });
  router.use(activityRouter(controls));
  router.use((_req, res) => {
    res.status(404).json({ error: 'Unknown emulator control' });
  });
  router.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    void _next;
    res.status(400).json({ error: controlErrorMessage(err) });
  });
  return router;
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
