/**
 * Public types of the provider emulator (Facebook Login dialog + Graph API).
 * Kept in one module so the app, its tests and the benchmarks can import
 * them without pulling in Express.
 */
import type { Seed, SeedName } from './seed';

/** A registered app ("client" in RFC 6749 §2). */
export interface EmulatorClient {
  clientId: string;
  clientSecret: string;
  /** Compared byte for byte, like the real provider's "Valid OAuth Redirect URIs". */
  redirectUri: string;
  name: string;
  /** Where removing the app is announced (the provider's "Deauthorize Callback URL"); absolute http(s). */
  deauthorizeUrl?: string;
  /** Where a deletion request is sent (the provider's "Data Deletion Request URL"); absolute http(s). */
  dataDeletionUrl?: string;
  /** The app dashboard's webhook "Callback URL" (http(s)); verified before the first delivery (README#webhooks). */
  webhookUrl?: string;
  /** The dashboard's "Verify token", sent back in the verification request. */
  webhookVerifyToken?: string;
  /**
   * The day the app was created (`YYYY-MM-DD`; default: the day the emulator starts, never before
   * 2026-11-04). From 2026-11-04 on it is a new app: the legacy Graph features are refused (README#legacy-features).
   */
  created?: string;
}

/**
 * A Facebook Login for Business configuration: the dialog opened with
 * `config_id=<id>` asks for exactly these permissions, whatever `scope` says.
 */
export interface LoginConfiguration {
  id: string;
  name: string;
  permissions: string[];
}

/**
 * How the emulator treats PKCE: `facebook` (the default) as the provider is
 * documented and reported to, `strict-rfc` as plain RFC 7636. See the README.
 */
export type EmulatorProfile = 'facebook' | 'strict-rfc';

export const EMULATOR_PROFILES: readonly EmulatorProfile[] = ['facebook', 'strict-rfc'];

export interface EmulatorOptions {
  clients: EmulatorClient[];
  /** PKCE behaviour (default `facebook`). */
  profile?: EmulatorProfile;
  /** Initial injected latency for Graph and token calls (default 0). */
  latencyMs?: number;
  /**
   * Failures scripted at start, as `controls.failNext(n, failure)` scripts them, in order (default none;
   * `reset()` does not script them again). E.g. `[{ failure: { writes: true, error: { code: 368 } } }]` refuses the
   * first write (docs/reference.md#comment-moderation).
   */
  failNext?: { n?: number; failure: Failure }[];
  /** Lifetime of an authorization code (default 10 minutes). */
  codeTtlMs?: number;
  /** Short-lived user token lifetime in seconds (default 7200). */
  userTokenTtlSec?: number;
  /** Long-lived user token lifetime in seconds (default 60 days). */
  longLivedTtlSec?: number;
  /** Clock in epoch milliseconds, for tests. */
  now?: () => number;
  /**
   * Data set: a seed's name (`demo`, the default: realistic content; `test`:
   * the hostile content the app's tests assert on) or a `Seed` of your own
   * (README#seeds). `loadSeed` switches later.
   */
  seed?: Seed | SeedName;
  /**
   * Origin the emulator's own links (paging `next`/`previous`) point at, never
   * taken from a request's Host header. Default: the listening URL for
   * `startEmulator`, `http://localhost` for `createEmulator`.
   */
  publicUrl?: string;
  /**
   * Mount the unauthenticated `/__emulator/*` HTTP controls (default off).
   * Tests and the demo that drive a separately started emulator opt in; the
   * in-process `controls` object is always there.
   */
  httpControls?: boolean;
  /**
   * Host names, besides loopback, the emulator answers as its own: its pages and its HTTP controls (a
   * container network's service name, README#in-a-container). Default none: a request naming another
   * host is refused, so a web page that rebinds its DNS name to this address gets nothing.
   */
  hosts?: readonly string[];
  /** How long one signed callback to an app may take before it counts as failed (default 5000 ms). */
  callbackTimeoutMs?: number;
  /**
   * The version the app's dashboard holds: what an unversioned Graph call runs
   * at, named in `facebook-api-version` (default `v23.0`).
   */
  appVersion?: string;
  /** Page fields the provider removed: a read asking for one is refused with code 100 (README#removed-fields). */
  removedFields?: string[];
  /** Login for Business configurations the dialog accepts as `config_id` (default `DEFAULT_CONFIGURATIONS`). */
  configurations?: LoginConfiguration[];
  /** Webhook deliveries: answer deadline (default 20 s), retry schedule and batching window (README#webhooks). */
  webhooks?: { timeoutMs?: number; retryDelaysMs?: number[]; batchMs?: number };
  /** Demo activity: a post now and then on every page (default off; README#activity). */
  activity?: boolean | { intervalMs?: number; maxPosts?: number };
  /**
   * Feed positions (0: the first page) where a page comes back empty once, with `next` and no cursors, as
   * the provider's paging guide says a page may (default `[50]`; `[]` for none; README#empty-pages).
   */
  emptyFeedPages?: readonly number[];
  /**
   * Largest `/me/accounts` page (default 10): a bigger `limit` is capped, so a
   * person with many Pages makes the app follow `paging.next`.
   */
  accountsPageSize?: number;
}

/** Which tokens a control applies to; an empty filter means every token. */
export interface TokenFilter {
  userId?: string;
  pageId?: string;
  token?: string;
}

/** Why a token was revoked; picks the 190 subcode the Graph API answers with. */
export type RevokeReason = 'password_changed' | 'app_removed' | 'logged_out';

/** Graph error parts a test may script; missing parts default per code. */
export interface ScriptedGraphError {
  code: number;
  subcode?: number;
  message?: string;
  type?: string;
  /** `error_user_title` / `error_user_msg`: the provider's words for the person. */
  userTitle?: string;
  userMessage?: string;
}

/**
 * What `failNext` makes a request do. `match` limits it to paths containing the text; `writes` to writes (a Graph
 * `POST` or `DELETE` of a node or edge: not the token endpoint, a batch, or a `POST` with `method=get`).
 * `slow` waits, then handles the request; `late` handles it at once (a write happens) and holds its answer.
 */
export type Failure = (
  | { kind?: 'graph'; status?: number; error: ScriptedGraphError; retryAfter?: number }
  | { kind: 'http'; status: number; body?: string; contentType?: string; retryAfter?: number }
  | { kind: 'reset' }
  | { kind: 'hang' }
  | { kind: 'slow'; ms: number }
  | { kind: 'late'; ms: number }
) & { match?: string; writes?: boolean };

/** A scripted failure that has not fired (yet), with how many requests it still fails. */
export interface PendingFailure {
  remaining: number;
  failure: Failure;
}

export interface RateLimit {
  calls: number;
  windowMs: number;
  /**
   * Calls in a window before the usage headers appear (default 1: the first call carries none). The
   * provider sends them "once enough calls have been made to an endpoint" (its Rate Limiting guide).
   */
  headersAfter?: number;
}

export type TokenVia = 'query' | 'form' | 'header';
export type TokenKind = 'user' | 'page' | 'app' | 'unknown';
export type RequestKind = 'dialog' | 'token' | 'graph';

/**
 * One request as the emulator saw it. Values are stored raw (not redacted) so
 * tests can assert where credentials travelled; repeated parameters are
 * joined with ",".
 */
export interface LogEntry {
  at: number;
  kind: RequestKind;
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  tokenVia: TokenVia | null;
  tokenKind: TokenKind | null;
  appsecretProof: boolean;
  /** null while pending, and for requests answered by a reset or a hang. */
  status: number | null;
}

export interface CallFilter {
  method?: string;
  /** Substring of the path. */
  path?: string;
  tokenKind?: TokenKind;
}

export interface IssueTokenRequest {
  userId: string;
  /** Default: the first registered client. */
  clientId?: string;
  /** Granted permissions; default every permission the dialog knows. */
  scopes?: string[];
  longLived?: boolean;
  /** Return a page token for this page instead (the user must manage it). */
  pageId?: string;
  /** The Pages chosen at the dialog's page step; default every Page the user manages. */
  pages?: string[];
}

/** Remove an app from a person's "Apps and Websites" settings, as the settings page does. */
export interface RemoveAppRequest {
  userId: string;
  /** Default: the first registered client. */
  clientId?: string;
  /** Also send the data-deletion callback ("Remove and request deletion"). */
  requestDeletion?: boolean;
}

/** One signed callback the emulator sent to an app, and how the app answered. */
export interface CallbackDelivery {
  /** Epoch ms (the emulator's clock) when it was sent. */
  at: number;
  kind: 'deauthorize' | 'data_deletion';
  clientId: string;
  userId: string;
  url: string;
  /** The app's HTTP status; null when no answer came (unreachable, timeout). */
  status: number | null;
  /** 2xx, and for a data deletion an answer with `url` and `confirmation_code`. */
  ok: boolean;
  /** The answer, parsed when it was JSON. */
  body?: unknown;
  confirmationCode?: string;
  /** The status page the app named in its data-deletion answer (`url`). */
  statusUrl?: string;
  /** Why it is not ok, in a few words. */
  error?: string;
  durationMs: number;
}

export interface RemoveAppResult {
  /** Tokens revoked (190/458 from now on). */
  revoked: number;
  /** Deauthorize first, then data deletion when requested; none without registered URLs. */
  deliveries: CallbackDelivery[];
}

/** How far `moveClock` moves the clock, one of the two: forward by `advanceMs`, or to `at` (ISO 8601, not before now). */
export interface ClockMove {
  advanceMs?: number;
  at?: string;
}

export interface EmulatorControls {
  /** Make matching tokens expire now (Graph answers 190/463). Returns how many. */
  expireTokens(filter?: TokenFilter): number;
  /** Revoke matching tokens (190/460 by default). Returns how many. */
  revokeTokens(filter?: TokenFilter & { reason?: RevokeReason }): number;
  setLatency(ms: number): void;
  /**
   * The next `n` matching Graph/token requests fail as described. An operation of a batch is matched by its path
   * and query (`match` required) and only a Graph error is scripted for it (README#batch-requests). With
   * `writes: true` only writes match: a Graph error refuses the next write, `kind: 'late'` makes it happen and
   * answers late (docs/reference.md#comment-moderation).
   */
  failNext(n: number, failure: Failure): void;
  /**
   * Scripted failures that have not fired yet, oldest first. A test helper
   * checks this is empty after each test: a failure scripted but never used
   * means the test did not exercise what it meant to.
   */
  pendingFailures(): PendingFailure[];
  /** Drops scripted failures only (data, tokens, latency and log stay). Returns how many requests they would still have failed. */
  clearFailures(): number;
  /** null restores the default (a budget too large to reach). */
  setRateLimit(limit: RateLimit | null): void;
  /**
   * Where feed pages come back empty once, with `next` and no cursors: a page that would start at one of these
   * post positions (0-based, 0 the first page; default `[50]`, `[]` for none). `reset()` restores the
   * `emptyFeedPages` option.
   */
  setEmptyFeedPages(positions: readonly number[]): void;
  /** Set (or with null/undefined, unset) one field of a page. */
  setPageField(pageId: string, field: string, value: unknown): void;
  /** The person's tasks on a page from now on (null: no role), as when a Page admin changes them. */
  setRole(userId: string, pageId: string, tasks: string[] | null): void;
  /** The provider refuses an insights metric it served until now, as it does one it has retired (README#insights). */
  refuseMetric(metric: string): void;
  /**
   * When an app was created (`YYYY-MM-DD`; default: the first registered app): one created on or after
   * 2026-11-04 is refused the legacy Graph features (README#legacy-features). `reset()` restores the option's.
   */
  setAppCreated(day: string, clientId?: string): void;
  /** Page fields refused from now on, on every version, as the provider refuses a removed field (README#removed-fields). */
  setRemovedFields(fields: string[]): void;
  /** The Page fields refused now. */
  removedFields(): string[];
  /**
   * Moves the emulator's clock forward, by `advanceMs` or to the instant `at` (ISO 8601), never back: token
   * lifetimes, codes and scheduled posts follow it, and the posts that fell due are published now, each with its
   * `feed` webhook. Returns the new time and the posts published. `reset()` leaves the clock where it is
   * (docs/reference.md#clock).
   */
  moveClock(move: ClockMove): { now: string; published: string[] };
  /** The emulator's time now (ISO 8601). */
  clock(): { now: string };
  /** Back to the seed data; clears failures, latency, rate limits, refused metrics, the log and removed fields (to the option's). Tokens stay. */
  reset(): void;
  /**
   * Replaces the data with the named seed (`demo` or `test`) or a `Seed` (checked as a seed file is, one line
   * naming every bad field), then resets as `reset()` does; `reset()` later returns to it (README#seeds).
   */
  loadSeed(seed: SeedName | Seed): void;
  /** The data as it is now (people, Pages, posts, comments, portfolios), as a `Seed`: `loadSeed` restores it. */
  snapshot(): Seed;
  /** The loaded seed's name (`custom` for a `Seed` given as an option). */
  seedName(): SeedName | 'custom';
  /** Live log, oldest first (bounded). */
  readonly requestLog: readonly LogEntry[];
  /** The same live array as `requestLog`. */
  readonly log: readonly LogEntry[];
  /** Every token issued and still remembered (user and page), for "no token leaked" assertions. */
  issuedTokens(): string[];
  clearLog(): void;
  /** Number of Graph and token-endpoint requests logged (dialog and controls excluded). */
  calls(filter?: CallFilter): number;
  /** Shortcut past the dialog for tests and benchmarks. */
  issueToken(request: IssueTokenRequest): { access_token: string; expires_in: number | null };
  /** Revokes the person's tokens for the app (190/458), then sends the signed callbacks and waits for the answers. */
  removeApp(request: RemoveAppRequest): Promise<RemoveAppResult>;
  /** Callbacks sent so far, oldest first (bounded); cleared by `reset`. */
  callbackDeliveries(): CallbackDelivery[];
}

// Declared apart so the webhook/activity controls stay one additive block.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EmulatorControls extends ActivityControls {}

/** A client's webhook callback, as set in the provider's app dashboard. */
export interface WebhookSettings {
  url: string;
  verifyToken: string;
  /** Page fields the app subscribed to with `/{app-id}/subscriptions`; absent when set on the dashboard. */
  fields?: readonly string[];
}

export interface WebhookAttempt {
  at: number;
  /** null when there was no answer (refused, reset, timed out: see `error`). */
  status: number | null;
  error?: string;
}

/** One verification request or event notification the emulator sent, with every attempt. */
export interface WebhookDelivery {
  id: string;
  kind: 'verification' | 'event';
  clientId: string;
  url: string;
  /** The raw JSON body as sent (empty for a verification request). */
  body: string;
  /** `X-Hub-Signature-256` as sent (event notifications only). */
  signature?: string;
  /** `X-Hub-Signature` (`sha1=…`) as sent beside it (event notifications only). */
  signatureSha1?: string;
  attempts: WebhookAttempt[];
  state: 'pending' | 'delivered' | 'failed';
}

/** A new post from the activity controls; the page posts it (it is the `from`). */
export interface NewPost {
  pageId: string;
  message?: string;
  story?: string;
}

/** A new comment from the activity controls: on a post, or a reply to one of its comments (`parentId`). */
export interface NewComment {
  postId: string;
  message: string;
  parentId?: string;
  /** Written by the Page itself; else by a visiting reader. */
  byPage?: boolean;
}

/** Webhooks and page activity, part of `EmulatorControls` (README#webhooks, README#activity). */
export interface ActivityControls {
  /** Sets (or with null removes) a client's callback; resolves whether the verification request succeeded (kept only then). */
  setWebhook(clientId: string, settings: WebhookSettings | null): Promise<boolean>;
  /** Apps subscribed to a page (`subscribed_apps`). */
  subscriptions(pageId: string): { clientId: string; fields: string[] }[];
  /** Verification requests and event notifications sent, oldest first (bounded). */
  webhookDeliveries(): WebhookDelivery[];
  /** Sends a recorded event notification again, unchanged: a duplicate. */
  redeliverWebhook(id: string): void;
  /** Resolves when no batch waits, no delivery is in flight and no retry is scheduled. */
  webhooksIdle(): Promise<void>;
  /** Publishes a post at the top of the page's feed; returns its id. */
  addPost(post: NewPost): { id: string };
  editPost(postId: string, message: string): void;
  removePost(postId: string): void;
  /** Sets a post's reaction counts by type (`like`, `love`, …); each change is a `reaction` webhook. */
  setReactions(postId: string, counts: Record<string, number>): void;
  /** A post's reaction counts. */
  reactions(postId: string): Record<string, number>;
  /** Adds a comment (or a reply) to a post: a `comment` webhook with verb `add`; returns its id. */
  addComment(comment: NewComment): { id: string };
}

export interface RunningEmulator {
  /** Origin such as http://127.0.0.1:54321 (no trailing slash). */
  url: string;
  port: number;
  controls: EmulatorControls;
  /** Stops listening and destroys open (keep-alive, hanging) connections. */
  close(): Promise<void>;
}
