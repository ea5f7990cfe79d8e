import type { Config } from './config';
import type { GraphClient } from './graph/client';
import type { Logger } from './log/logger';
import type { ConnectionKeeper } from './session/connection';
import type { SessionStoreHandle } from './session/store';

/** What the routes share: built once by createApp. */
export interface AppContext {
  config: Config;
  graph: GraphClient;
  keeper: ConnectionKeeper;
  sessions: SessionStoreHandle;
  logger: Logger;
  now: () => number;
}
