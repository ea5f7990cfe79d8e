import type { Request } from 'express';
import { NotConnectedError, PageAccessError } from '../errors';
import type { GraphClient } from '../graph/client';
import type { ConnectionKeeper } from '../session/connection';

/** Gets the page token with the user token and keeps it, sealed, in the session's connection. */
export async function connectPage(
  ctx: { keeper: ConnectionKeeper; graph: Pick<GraphClient, 'pageToken'> },
  req: Request,
  pageId: string,
): Promise<void> {
  const userToken = ctx.keeper.userToken(req);
  if (!userToken) throw new NotConnectedError('Connect your account first.');
  const pageToken = await ctx.graph.pageToken(userToken, pageId);
  if (!pageToken) throw new PageAccessError();
  ctx.keeper.addPage(req, pageId, pageToken, '');
}
