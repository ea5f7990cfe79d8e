import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context';
import { z } from 'zod';
import { NotConnectedError, PageAccessError } from '../errors';
import { pageIdParam, parseInput, queryParam, refusal } from '../http/params';
import type { PageEvent } from './bus';

/** A tab that reconnects waits this long first (the `retry:` hint), so a restart is not a stampede. */
export const RETRY_MS = 3000;
/** A client that reads nothing while this much is queued for it is dropped; it reconnects and reloads. */
const MAX_QUEUED_BYTES = 64 * 1024;

/**
 * `GET /pages/:pageId/events`: Server-Sent Events telling an open page that its feed changed. The same
 * authorization as the page view: the session must hold a token for the page.
 */
export function liveRoutes(ctx: AppContext): Router {
  const router = Router();
  router.param('pageId', (req, _res, next, value) => {
    req.params.pageId = pageIdParam(value);
    next();
  });
  router.get('/:pageId/events', (req, res) => stream(ctx, req, res));
  return router;
}

function stream(ctx: AppContext, req: Request, res: Response): void {
  const pageId = req.params.pageId as string;
  // The pages' own access value (../pages/pipeline.ts): the stream follows a page only while its view may be read.
  const access = ctx.signIns.pageAccess(req, pageId);
  if (!access.pageToken) {
    if (!access.userToken) throw new NotConnectedError({ key: 'error.notConnected.follow' });
    throw new PageAccessError();
  }
  const { since } = parseInput(streamInput, { params: req.params, query: req.query }).query;
  const { sessionId, userId: person } = access;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    cleanup();
    res.end();
  };
  const release = ctx.streams.admit({ session: sessionId, person, address: req.ip }, { end });

  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  // A proxy must pass events on as they come, not buffer them.
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write(`retry: ${RETRY_MS}\n\n`);

  const send = (event: PageEvent, at: number) => {
    if (res.writableLength > MAX_QUEUED_BYTES) return end();
    // Counts and ids only, never user content; the ids let the tab that made the change tell nothing of it.
    const data =
      event.kind === 'new-posts'
        ? { count: event.count, ...(event.postId !== undefined ? { postId: event.postId } : {}) }
        : event.kind === 'new-comment'
          ? { postId: event.postId, ...(event.commentId !== undefined ? { commentId: event.commentId } : {}) }
          : {};
    res.write(`id: ${at}\nevent: ${event.kind}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const unsubscribe = ctx.events.subscribe(pageId, send);
  // What changed between the page being rendered and this stream opening.
  // A reconnecting tab says what it saw last (Last-Event-ID), so nothing is told twice.
  const from = Math.max(since ?? -1, lastEventId(req.headers['last-event-id']) ?? -1);
  if (from >= 0) for (const { at, event } of ctx.events.since(pageId, from)) send(event, at);
  // The heartbeat keeps proxies and the server's idle timeout from closing a quiet stream, and notices a session
  // that ended elsewhere: expired, logged out on another instance, or signed out by the provider's deauthorize
  // callback on any instance (the session is still there, without the page in its sign-in).
  const heartbeat = setInterval(() => {
    res.write(': heartbeat\n\n');
    ctx.sessions.store.get(sessionId, (err, session) => {
      if (!err && ctx.signIns.heldPage(session?.signIn, pageId) === undefined) end();
    });
  }, ctx.config.liveHeartbeatSec * 1000);
  heartbeat.unref();

  function cleanup() {
    clearInterval(heartbeat);
    unsubscribe();
    release();
  }
  req.on('close', () => {
    ended = true;
    cleanup();
  });
}

/** `since`: when the page was rendered (epoch ms, from the page itself); absent on a plain reconnect. */
const streamInput = z.object({
  query: z.object({
    since: queryParam(16)
      .refine((raw) => /^\d{1,15}$/.test(raw), refusal({ key: 'error.param.since' }))
      .transform(Number)
      .optional(),
  }),
});

/** The id of the last event a reconnecting EventSource received: one of ours (digits), else ignored. */
function lastEventId(header: string | string[] | undefined): number | undefined {
  return typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : undefined;
}
