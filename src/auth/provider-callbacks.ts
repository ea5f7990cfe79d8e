import { randomBytes } from 'node:crypto';
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context';
import { NotFoundError } from '../errors';
import { perMinuteLimit } from '../http/rate-limit';
import { parseJson } from '../json';
import { signOutUser, type SignOutOutcome } from '../session/sign-out';
import { addRemoval, settleRemoval } from './removals';
import { verifySignedRequest } from './signed-request';

/** How long a deletion's confirmation can be looked up. */
export const DELETION_RECORD_SEC = 30 * 24 * 60 * 60;
/** Callbacks one address may send per minute: the provider sends one per removal. */
export const CALLBACK_RATE_LIMIT = 120;
const CODE = /^[0-9a-f]{32}$/;

const recordSchema = z.object({
  requestedAt: z.number().finite(),
  sessions: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative(),
});

/**
 * The provider's server-to-server callbacks and the deletion status page.
 * Mounted before the session middleware: no session is read, no cookie set,
 * and no CSRF token applies (the signature is the proof of origin).
 */
export function providerCallbackRoutes(ctx: AppContext): Router {
  const router = Router();
  const forgetEverywhere = accountsForgetting(ctx);
  const limit = perMinuteLimit({
    limit: CALLBACK_RATE_LIMIT,
    refuse: (_req, res) => void res.status(429).json({ error: 'too_many_requests' }),
  });
  const body = smallForm();
  router.post('/deauthorize', limit, body, async (req, res) => {
    const userId = verified(ctx, req, res);
    if (!userId) return;
    const outcome = await forget(ctx, userId, forgetEverywhere);
    // Kept for the data-deletion callback that follows, which reports it; and a login begun before now is refused.
    await addRemoval(ctx, userId, outcome);
    req.log.info({ userId, sessions: outcome.sessions }, 'provider: app removed; sessions ended');
    res.status(200).json({ ok: true });
  });
  router.post('/data-deletion', limit, body, async (req, res) => {
    const userId = verified(ctx, req, res);
    if (!userId) return;
    const outcome = await forget(ctx, userId, forgetEverywhere);
    // The deauthorize callback came first and ended the sessions: the receipt tells what both did.
    const removal = await addRemoval(ctx, userId, outcome);
    // Dropped again: a view that was loading while the sessions ended may have stored its answer since.
    for (const pageId of removal.pageIds) ctx.pageCache.dropPage(pageId);
    const code = randomBytes(16).toString('hex');
    const record = { requestedAt: ctx.now(), sessions: removal.sessions, pages: removal.pageIds.length };
    // The record names no person: the code is all that links it to the request.
    await ctx.sessions.records.put(`deletion:${code}`, JSON.stringify(record), DELETION_RECORD_SEC);
    await settleRemoval(ctx, userId);
    req.log.info({ userId, sessions: record.sessions }, 'provider: data deletion requested; sessions ended');
    res.status(200).json({ url: `${ctx.config.baseUrl}/auth/data-deletion/${code}`, confirmation_code: code });
  });
  router.get('/data-deletion/:code', async (req, res) => {
    const code = req.params.code;
    // The shape first: nothing that could not be a code reaches the store.
    if (typeof code !== 'string' || !CODE.test(code)) throw new NotFoundError({ key: 'error.deletion.unknownCode' });
    const raw = await ctx.sessions.records.get(`deletion:${code}`);
    const parsed = raw === undefined ? undefined : recordSchema.safeParse(parseJson(raw));
    if (!parsed?.success) throw new NotFoundError({ key: 'error.deletion.unknownCode' });
    const locale = res.locals.locale;
    res.render('deletion', {
      title: locale.t('deletion.title'),
      code,
      requestedAt: new Date(parsed.data.requestedAt).toISOString(),
      requestedAtText: locale.dateTime(parsed.data.requestedAt),
      sessions: parsed.data.sessions,
      pages: parsed.data.pages,
    });
  });
  return router;
}

/** The user id of a verified signed_request, or undefined once a 400 has been sent. */
function verified(ctx: AppContext, req: Request, res: Response): string | undefined {
  const form = req.body as Record<string, unknown> | undefined;
  const result = verifySignedRequest(form?.signed_request, ctx.config.appSecret, ctx.now());
  if (result.ok) return result.request.userId;
  req.log.info({ reason: result.reason }, 'provider callback refused');
  res.status(400).json({ error: 'invalid_signed_request', reason: result.reason });
  return undefined;
}

/**
 * Every session of the person ends on every instance; the pages they had connected leave the page cache, and the
 * lists of their pages fetched with their user tokens (which hold page tokens) leave this instance's accounts cache.
 */
async function forget(
  ctx: AppContext,
  userId: string,
  forgetEverywhere: (key: string) => void,
): Promise<SignOutOutcome> {
  const outcome = await signOutUser(ctx.sessions, userId, ctx.now());
  for (const pageId of outcome.pageIds) ctx.pageCache.dropPage(pageId);
  for (const { sid, sealed } of outcome.userTokens) {
    const token = ctx.signIns.storedUserToken(sid, sealed);
    if (token !== undefined) forgetEverywhere(ctx.accounts.forget(token));
  }
  // Their open pages stop hearing of changes now, on every instance at once.
  ctx.events.endPerson(userId);
  return outcome;
}

/** How long a publish to the other instances may take before this one gives up on telling them. */
const PUBLISH_DEADLINE_MS = 500;
const ACCOUNTS_KEY = /^[\w-]{43}$/;

/**
 * With the page cache in Redis the instances share a Redis subscriber already: an accounts list forgotten
 * here is forgotten on every instance, by the token's digest (never the token). Otherwise other instances keep it
 * for at most ACCOUNTS_CACHE_TTL, unreachable: no session holds its token any more.
 */
function accountsForgetting(ctx: AppContext): (key: string) => void {
  const { redis } = ctx;
  if (ctx.config.pageCacheStore !== 'redis' || !redis) return () => undefined;
  const channel = `${ctx.config.redisKeyPrefix}accounts:forget`;
  redis
    .subscribe(channel, (key) => {
      if (ACCOUNTS_KEY.test(key)) ctx.accounts.forgetKey(key);
    })
    .catch((err: unknown) => ctx.logger.warn({ err }, 'provider callbacks: could not subscribe to Redis'));
  return (key) =>
    void redis
      .command(['PUBLISH', channel, key], PUBLISH_DEADLINE_MS)
      .catch((err: unknown) => ctx.logger.warn({ err }, 'provider callbacks: could not tell other instances'));
}

/** A urlencoded body of at most 4 KB and 10 fields; anything else is a 400 JSON answer, not an error page. */
function smallForm(): RequestHandler {
  const parse = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 });
  return (req: Request, res: Response, next: NextFunction) =>
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const type = (err as { type?: string }).type;
      res.status(400).json({ error: 'invalid_request', reason: type === 'entity.too.large' ? 'too_large' : 'body' });
    });
}
