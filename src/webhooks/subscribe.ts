import type { Request } from 'express';
import { SUBSCRIBE_SCOPE } from '../config';
import type { AppContext } from '../context';

/**
 * After a page is connected: subscribes the app to the page's feed webhooks when the person granted
 * `pages_manage_metadata` and webhooks are on, and notes in the session that the page gets live updates.
 * A refusal or a failure is logged and the page works as before (updates on reload); it never fails the connect.
 * @see docs/architecture.md#live-updates
 */
export async function subscribePage(ctx: AppContext, req: Request, pageId: string): Promise<void> {
  const page = ctx.keeper.current(req)?.pages[pageId];
  if (!page) return;
  const granted = ctx.keeper.current(req)?.scopes;
  if (ctx.config.webhookVerifyToken === undefined || !granted?.includes(SUBSCRIBE_SCOPE)) {
    delete page.live;
    return;
  }
  const token = ctx.keeper.pageToken(req, pageId);
  if (!token) return;
  try {
    await ctx.graph.subscribeApp(token, pageId);
    page.live = true;
  } catch (err) {
    delete page.live;
    (req.log ?? ctx.logger).warn({ err, pageId }, 'could not subscribe the page to webhooks; updates appear on reload');
  }
}
