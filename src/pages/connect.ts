import type { Request } from 'express';
import type { AppContext } from '../context';
import { AppError, NotConnectedError } from '../errors';

/** The person is logged in but does not manage the page they asked for. */
export class PageAccessError extends AppError {
  readonly status = 403;
  readonly code = 'page_access';
  constructor() {
    super('Your account does not manage this page, or the permission to reach it was not granted.');
  }
}

/** Gets the page token (SPEC §2 row 3) with the user token and keeps it, sealed, in the session. */
export async function connectPage(ctx: AppContext, req: Request, pageId: string): Promise<void> {
  const userToken = ctx.keeper.userToken(req);
  if (!userToken) throw new NotConnectedError('Connect your account first.');
  const pageToken = await ctx.graph.pageToken(userToken, pageId);
  if (!pageToken) throw new PageAccessError();
  ctx.keeper.addPage(req, pageId, pageToken, '');
}
