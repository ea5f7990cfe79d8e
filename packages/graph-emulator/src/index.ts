/**
 * Graph emulator: a stand-in for Facebook Login's dialog and the Graph API, in process
 * or on its own port. See its README and docs/specification.md.
 */
export { createEmulator, EMULATOR_HEADER } from './app';
export { startEmulator } from './server';
export { EMULATOR_TOKEN_PREFIX } from './store/tokens';
export { appUrls, DEMO_CLIENT, demoClient } from './demo';
export { DEFAULT_SEED, DEMO_SEED, MODERATION_IDS, SEED_IDS, SEED_NAMES, TEST_SEED } from './seed';
export type {
  Seed,
  SeedAttachment,
  SeedBusiness,
  SeedComment,
  SeedName,
  ModerationIds,
  SeedPage,
  SeedPost,
  SeedUser,
  SeedRole,
  PageLocation,
} from './seed';
export { DEFAULT_CONFIGURATIONS, PERMISSIONS } from './permissions';
export { EMULATOR_PROFILES } from './types';
export { GRAPH_API_VERSIONS } from './versions';
export type {
  CallbackDelivery,
  ActivityControls,
  CallFilter,
  ClockMove,
  NewPost,
  WebhookAttempt,
  WebhookDelivery,
  WebhookSettings,
  EmulatorClient,
  EmulatorControls,
  EmulatorOptions,
  EmulatorProfile,
  Failure,
  IssueTokenRequest,
  LogEntry,
  PendingFailure,
  RateLimit,
  RemoveAppRequest,
  RemoveAppResult,
  RevokeReason,
  RunningEmulator,
  ScriptedGraphError,
  TokenFilter,
  TokenKind,
  TokenVia,
} from './types';
