import { NotConnectedError, PageAccessError } from '../errors';
import type { Logger } from '../log/logger';
import type { PageChanges, UserAccess } from '../session/access';
import type { AppContext } from '../context';
import { subscribePage } from '../webhooks/subscribe';
import { listedPage, listedRole } from './cache-policy';

/**
 * Connects a Page: gets its page token with the user token, then subscribes it to webhooks where it can
 * (../webhooks/subscribe). Gives back what the session keeps — the token, sealed when kept, and whether the
 * page is live — for the route to write with SignIns.applyPageChanges.
 */
export async function connectPage(
  ctx: Pick<AppContext, 'graph' | 'config'>,
  user: UserAccess,
  pageId: string,
  log: Logger,
): Promise<PageChanges> {
  if (!user.userToken) throw new NotConnectedError({ key: 'error.notConnected.first' });
  const pageToken = await ctx.graph.pageToken(user.userToken, pageId);
  if (!pageToken) throw new PageAccessError();
  const live = await subscribePage(ctx, { pageId, pageToken, scopes: user.scopes }, log);
  return { connected: { token: pageToken, name: '' }, live };
}

/**
 * Connecting from the picker (POST /pages/:pageId/connect): as {@link connectPage}, and the session's tokens
 * have just succeeded upstream for the page, and the picker's list, still at hand, says the person's role and
 * the Page's name (home names the connected Page before its view was ever opened).
 */
export async function connectChosenPage(
  ctx: Pick<AppContext, 'graph' | 'config' | 'accounts' | 'now'>,
  user: UserAccess,
  pageId: string,
  log: Logger,
): Promise<PageChanges> {
  const changes = await connectPage(ctx, user, pageId, log);
  const tasks = listedRole(ctx, user.userToken, pageId);
  const name = listedPage(ctx, user.userToken, pageId)?.name.trim() ?? '';
  const connected = changes.connected && { ...changes.connected, name };
  return { ...changes, connected, tokenConfirmedAt: ctx.now(), ...(tasks ? { tasks } : {}) };
}
