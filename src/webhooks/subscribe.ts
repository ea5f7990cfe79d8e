import { SUBSCRIBE_SCOPE } from '../graph/provider';
import type { AppContext } from '../context';
import type { Logger } from '../log/logger';

/** What subscribing needs of a Page just connected. */
export interface SubscribeTarget {
  pageId: string;
  pageToken: string;
  /** The permissions granted at login, when the provider listed them. */
  scopes: readonly string[] | undefined;
}

/**
 * After a page is connected: subscribes the app to the page's feed webhooks when the person granted
 * `pages_manage_metadata` and webhooks are on. Whether the page gets live updates is the answer, for the
 * session to keep. A refusal or a failure is logged and the page works as before (updates on reload); it
 * never fails the connect.
 */
export async function subscribePage(
  ctx: Pick<AppContext, 'graph' | 'config'>,
  { pageId, pageToken, scopes }: SubscribeTarget,
  log: Logger,
): Promise<boolean> {
  if (ctx.config.webhookVerifyToken === undefined || !scopes?.includes(SUBSCRIBE_SCOPE)) return false;
  try {
    await ctx.graph.subscribeApp(pageToken, pageId);
    return true;
  } catch (err) {
    log.warn({ err, pageId }, 'could not subscribe the page to webhooks; updates appear on reload');
    return false;
  }
}
