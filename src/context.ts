import type { IdTokenVerifier } from './auth/idToken';
import type { Config } from './config';
import type { GraphClient } from './graph/client';
import type { PageEvents } from './live/bus';
import type { StreamRegistry } from './live/streams';
import type { Logger } from './log/logger';
import type { AccountsCache } from './cache/accounts';
import type { PageCacheStore } from './cache/pageCache';
import type { SessionGate } from './pages/limits';
import type { ConnectionKeeper } from './session/connection';
import type { SessionStoreHandle } from './session/store';

/** What the routes share: built once by createApp. */
export interface AppContext {
  config: Config;
  graph: GraphClient;
  keeper: ConnectionKeeper;
  /** Verifies the id_token of OIDC logins (`openid` in FB_SCOPES). */
  idTokens: IdTokenVerifier;
  sessions: SessionStoreHandle;
  logger: Logger;
  /** Page details and first feed pages, shared by sessions that hold a token for the page. */
  pageCache: PageCacheStore;
  /** Each person's list of pages, briefly, per user token. */
  accounts: AccountsCache;
  /** Each session's share of concurrent provider reads. */
  upstream: SessionGate;
  now: () => number;
  /** Page changes the provider reported, for the streams open on pages (docs/architecture.md#live-updates). */
  events: PageEvents;
  /** Open live-update streams, bounded per session and in all. */
  streams: StreamRegistry;
}
