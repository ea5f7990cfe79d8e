import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context';
import { NotConnectedError, PageAccessError } from '../errors';
import { pageIdParam } from '../http/params';
import type { PageEvent } from './bus';

/** A tab that reconnects waits this long first (the `retry:` hint), so a restart is not a stampede. */
export const RETRY_MS = 3000;
/** A client that reads nothing while this much is queued for it is dropped; it reconnects and reloads. */
const MAX_QUEUED_BYTES = 64 * 1024;

/**
 * `GET /pages/:pageId/events`: Server-Sent Events telling an open page that its feed changed. The same
 * authorization as the page view: the session must hold a token for the page.
 * @see docs/architecture.md#live-updates
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
  if (!ctx.keeper.pageToken(req, pageId)) {
    if (!ctx.keeper.userToken(req)) throw new NotConnectedError('Connect your account to follow this page.');
    throw new PageAccessError();
  }
  const sessionId = req.sessionID;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    cleanup();
    res.end();
  };
  const release = ctx.streams.admit(sessionId, { end });

  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  // A proxy must pass events on as they come, not buffer them.
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write(`retry: ${RETRY_MS}\n\n`);

  const send = (event: PageEvent) => {
    if (res.writableLength > MAX_QUEUED_BYTES) return end();
    const data = event.kind === 'new-posts' ? { count: event.count } : {};
    res.write(`event: ${event.kind}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const unsubscribe = ctx.events.subscribe(pageId, send);
  // The heartbeat keeps proxies and the server's idle timeout from closing a quiet stream, and notices a session
  // that ended elsewhere (expired, or logged out on another instance).
  const heartbeat = setInterval(() => {
    res.write(': heartbeat\n\n');
    ctx.sessions.store.get(sessionId, (err, session) => {
      if (!err && !session) end();
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
