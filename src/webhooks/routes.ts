import { createHash } from 'node:crypto';
import express, { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { AppContext } from '../context';
import { perMinuteLimit } from '../http/rate-limit';
import { parseJson } from '../json';
import { pageChanges, type PageChange } from './payload';
import { writtenKey, writtenPostKey } from '../writes/keys';
import { sameSecret, validSignature } from './signature';

/**
 * The provider's largest batch is 1,000 changes: a few hundred bytes each. A bigger body is not the provider's.
 */
export const WEBHOOK_BODY_LIMIT = 512 * 1024;

/** Refused deliveries (bad signature, compressed, too large) one address may send per minute; the provider's are never refused. */
export const REFUSED_DELIVERY_LIMIT = 30;
/** Verification handshakes one address may try per minute: the provider sends one per subscription. */
export const HANDSHAKE_LIMIT = 20;
/** How long a delivery's digest is remembered: a provider retry within it does nothing the second time. */
export const REPLAY_WINDOW_MS = 10 * 60 * 1000;

/** Whether a delivery with this digest was seen before; remembers it either way. */
type SeenBefore = (digest: string) => Promise<boolean>;

/**
 * /webhooks/facebook: the provider's verification handshake and its deliveries. Mounted before the session
 * middleware: no session is read and no cookie set. Machine callers get short JSON answers.
 * @see docs/provider-interface.md#webhook-deliveries
 */
export function webhookRoutes(ctx: AppContext, verifyToken: string): Router {
  const router = Router();
  const seenBefore = replayGuard(ctx);
  const tooMany = (_req: Request, res: Response, _next: unknown, retryAfterSec: number) =>
    void res.status(429).set('retry-after', String(retryAfterSec)).json({ error: 'too many requests' });
  // Every try counts: guessing the verify token is the only reason to send many.
  router.get('/facebook', perMinuteLimit({ limit: HANDSHAKE_LIMIT, refuse: tooMany }), (req, res) =>
    handshake(req, res, verifyToken),
  );
  // Only refusals count (an answer of 400 and up, the 429 included). A delivery whose signature verifies never
  // meets the limit: behind a proxy without TRUST_PROXY every caller shares one address, and a flood of unsigned
  // bodies must not refuse the provider's (docs/operations.md#security-notes). Checking the signature means
  // reading the body, bounded at WEBHOOK_BODY_LIMIT and never inflated, over the limit or not.
  const refusals = perMinuteLimit({ limit: REFUSED_DELIVERY_LIMIT, countOnlyRefusals: true, refuse: tooMany });
  // The provider sends plain JSON: a compressed body is refused (415) on the bytes as received, before the
  // signature check would have made anyone pay for inflating it.
  router.post('/facebook', express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT, inflate: false }), (req, res) => {
    if (signedByProvider(ctx, req)) receive(ctx, seenBefore, req, res);
    else refusals(req, res, () => badSignature(ctx, req, res));
  });
  // A body refused unread (too large, compressed) counts as a refusal too.
  const refusedUnread: ErrorRequestHandler = (err, req, res, next) =>
    refusals(req, res, () => machineErrors(err, req, res, next));
  router.use(refusedUnread);
  return router;
}

function signedByProvider(ctx: AppContext, req: Request): boolean {
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  return validSignature(req.headers['x-hub-signature-256'], body, ctx.config.appSecret);
}

function badSignature(ctx: AppContext, req: Request, res: Response): void {
  req.log?.warn(
    { signed: req.headers['x-hub-signature-256'] !== undefined },
    'webhook delivery refused: bad signature',
  );
  ctx.observer?.webhook?.('bad_signature');
  res.status(403).json({ error: 'bad signature' });
}

/** `hub.mode=subscribe` with our verify token: echo `hub.challenge` as text; anything else is refused. */
function handshake(req: Request, res: Response, verifyToken: string): void {
  const parsed = handshakeQuery.safeParse(req.query);
  if (!parsed.success || !sameSecret(parsed.data['hub.verify_token'], verifyToken)) {
    req.log?.warn('webhook handshake refused');
    res.status(403).json({ error: 'verification failed' });
    return;
  }
  res.status(200).type('text/plain').send(parsed.data['hub.challenge']);
}

/** The provider's handshake; any other shape is refused with a 403 for the provider, not a page for a person. */
const handshakeQuery = z.object({
  'hub.mode': z.literal('subscribe'),
  'hub.verify_token': z.string(),
  'hub.challenge': z.string().regex(/^[\w.-]{1,128}$/),
});

/**
 * Deliveries seen lately, by digest: in Redis (`SET NX PX` under REDIS_KEY_PREFIX) when the page cache is shared, so
 * a delivery is handled once across instances; else in this process. When Redis does not answer, this process's
 * memory decides: handling a delivery twice is harmless, missing one is not.
 */
function replayGuard(ctx: AppContext): SeenBefore {
  const local = new LRUCache<string, true>({ max: 2000, ttl: REPLAY_WINDOW_MS });
  const seenHere = (digest: string): boolean => {
    if (local.has(digest)) return true;
    local.set(digest, true);
    return false;
  };
  const { redis } = ctx;
  if (ctx.config.pageCacheStore !== 'redis' || !redis) return (digest) => Promise.resolve(seenHere(digest));
  const prefix = `${ctx.config.redisKeyPrefix}webhook:`;
  return async (digest) => {
    try {
      const set = await redis.send(['SET', prefix + digest, '1', 'NX', 'PX', String(REPLAY_WINDOW_MS)]);
      return set === null;
    } catch (err) {
      ctx.logger.warn({ err }, 'webhook replay check in Redis failed; deciding in this process');
      return seenHere(digest);
    }
  };
}

/**
 * A delivery whose signature verified on its raw bytes: answers 200 at once and does the work after: the provider retries a
 * slow or failed delivery. A repeated delivery (same bytes) within 10 minutes does nothing the second time, on any
 * instance, and what it does (drop cached parts, tell open pages) is harmless to repeat anyway.
 */
function receive(ctx: AppContext, seenBefore: SeenBefore, req: Request, res: Response): void {
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  res.status(200).json({ received: true });
  const digest = createHash('sha256').update(body).digest('base64url');
  void seenBefore(digest).then((seen) => {
    if (seen) {
      req.log?.info('webhook delivery repeated; already handled');
      ctx.observer?.webhook?.('repeated');
    } else setImmediate(() => handle(ctx, body, req));
  });
}

function handle(ctx: AppContext, body: Buffer, req: Request): void {
  const parsed = parseJson(body.toString('utf8'));
  if (parsed === undefined) {
    req.log?.warn('webhook delivery is not JSON; ignored');
    ctx.observer?.webhook?.('ignored');
    return;
  }
  const changes = pageChanges(parsed);
  if (changes === undefined) {
    req.log?.warn('webhook delivery has no object and entries; ignored');
    ctx.observer?.webhook?.('ignored');
    return;
  }
  ctx.observer?.webhook?.('accepted');
  for (const change of changes) apply(ctx, change, req);
}

/** Drops what the change made stale, then tells open pages; logged with the page id and kinds only. */
export function apply(ctx: AppContext, change: PageChange, req?: Request): void {
  const { pageId, newPosts, feedChanged, detailsChanged, commentedPosts, kinds } = change;
  if (newPosts > 0 || feedChanged) {
    // A post's counts, text or comments changed: its page of its own too (the webhook names the post, but a
    // page's posts are few in the cache and a drop of the part is one step in either cache), and the scheduled
    // posts (one went live, or was moved or cancelled on Facebook).
    for (const part of ['feed', 'post', 'comments', 'scheduled'] as const) ctx.pageCache.dropPart(pageId, part);
  }
  if (detailsChanged) ctx.pageCache.dropPart(pageId, 'details');
  (req?.log ?? ctx.logger).info({ pageId, changes: kinds.slice(0, 20) }, 'webhook delivery');
  // Only comments added, which may all be this app's own: told once it is known which (tellCommented).
  const onlyAdded = change.addedComments.length > 0 && kinds.every((kind) => kind === 'feed:comment:add');
  // Only posts edited or removed, which may all be this app's own: told once it is known which (tellPosts).
  const onlyPosts = change.changedPosts.length > 0 && change.changedPosts.length === kinds.length;
  if (newPosts > 0) void tellPosted(ctx, change);
  else if (onlyPosts) void tellPosts(ctx, change);
  else if (feedChanged && !onlyAdded) ctx.events.publish(pageId, { kind: 'feed-changed' });
  void tellCommented(ctx, change, commentedPosts, feedChanged && onlyAdded && newPosts === 0);
}

/**
 * Tells the open pages of the posts added, but for those this app published itself: the write already told them
 * (src/pages/publish-actions.ts), and the provider's webhook for the same post must not show it twice.
 */
async function tellPosted(ctx: AppContext, change: PageChange): Promise<void> {
  const own = await Promise.all(
    change.addedPosts.map(async (postId) => {
      const known = await ctx.writeKeys.peek(writtenKey(postId)).catch(() => undefined);
      return known?.state === 'recorded';
    }),
  );
  const count = change.newPosts - own.filter(Boolean).length;
  if (count > 0) ctx.events.publish(change.pageId, { kind: 'new-posts', count });
}

/**
 * Tells the open pages of each post that gained a comment (and, for a change of added comments alone, the page
 * views that their feed changed), except a post whose every new comment this app wrote
 * itself: the write already told them (docs/architecture.md#writes), and the provider's webhook for the same
 * change must not show it twice. Whether a comment is the app's own is what the write path recorded for it.
 */
async function tellCommented(
  ctx: AppContext,
  change: PageChange,
  posts: readonly string[],
  feedChanged: boolean,
): Promise<void> {
  const own = await Promise.all(
    change.addedComments.map(async ({ postId, commentId }) => {
      const known = await ctx.writeKeys.peek(writtenKey(commentId)).catch(() => undefined);
      return { postId, ours: known?.state === 'recorded' };
    }),
  );
  if (feedChanged && !own.every((c) => c.ours)) ctx.events.publish(change.pageId, { kind: 'feed-changed' });
  for (const postId of posts) {
    const added = own.filter((c) => c.postId === postId);
    if (added.length > 0 && added.every((c) => c.ours)) continue;
    ctx.events.publish(change.pageId, { kind: 'new-comment', postId });
  }
}

/**
 * Tells the open pages of posts edited or removed alone, unless this app made every one of those changes: the write already told
 * them (src/pages/post-actions.ts), as for its own comments (tellCommented).
 */
async function tellPosts(ctx: AppContext, change: PageChange): Promise<void> {
  const own = await Promise.all(
    change.changedPosts.map(async ({ postId, verb }) => {
      const known = await ctx.writeKeys.peek(writtenPostKey(postId, verb)).catch(() => undefined);
      return known?.state === 'recorded';
    }),
  );
  if (!own.every(Boolean)) ctx.events.publish(change.pageId, { kind: 'feed-changed' });
}

/** body-parser's refusals (too large, bad encoding) as short JSON, not a page. */
const machineErrors: ErrorRequestHandler = (err: { status?: unknown; type?: unknown }, _req, res, next) => {
  if (res.headersSent) return next(err);
  const status = typeof err.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
  res.status(status).json({ error: status === 413 ? 'body too large' : status < 500 ? 'bad request' : 'failed' });
};
