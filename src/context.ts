import type { Config } from './config';
import type { GraphClient } from './graph/client';
import type { Logger } from './log/logger';
import type { PageCache } from './pages/cache';
import type { ConnectionKeeper } from './session/connection';
import type { SessionStoreHandle } from './session/store';

/** What the routes share: built once by createApp. */
export interface AppContext {
  config: Config;
  graph: GraphClient;
  keeper: ConnectionKeeper;
  sessions: SessionStoreHandle;
  logger: Logger;
  /** Page details and first feed pages, shared by sessions that hold a token for the page. */
  pageCache: PageCache;
  now: () => number;
}
