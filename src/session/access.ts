/**
 * What a route reads from the session once, as plain values, and the changes a use case hands back to be
 * written in one place (SignIns.applyPageChanges): below the route handlers, nothing takes the request.
 */

/** The person's side of the session, read once per request. */
export interface UserAccess {
  /** The session's id: each session's share of provider reads is counted by it (src/pages/fairness.ts). */
  readonly sessionId: string;
  /**
   * This request's number in the process: its upstream reads count once against the session's per-minute
   * limit however many they are (src/pages/fairness.ts `SessionRateLimit`).
   */
  readonly request: number;
  /** The person as the provider names them, when it said (a person's live streams are counted together). */
  readonly userId?: string | undefined;
  /** The user token, opened; undefined when not connected. */
  readonly userToken: string | undefined;
  /** The permissions granted at login, when the provider listed them. */
  readonly scopes: readonly string[] | undefined;
  /** The pages this session connected, with the names it last saw. */
  readonly pages: readonly { id: string; name: string }[];
}

/** What the session holds for one Page, read once per request. */
export interface PageAccess extends UserAccess {
  readonly pageId: string;
  /** The page token, opened; undefined when the page is not connected (or the login it came from ended). */
  readonly pageToken: string | undefined;
  /** The person's role on the page, sorted, once learned: part of the page cache's key. */
  readonly tasks: readonly string[] | undefined;
  /** When this session's tokens last succeeded upstream for the page (epoch ms). */
  readonly tokenConfirmedAt: number | undefined;
  /** The page was subscribed to webhooks when connected: its view gets live updates. */
  readonly live: boolean;
  /** The page's name as the session last had it. */
  readonly name: string | undefined;
}

/** What loading or connecting a Page learned, to be kept in the session. Absent fields change nothing. */
export interface PageChanges {
  /** The page was connected: its token (sealed when kept) and name replace whatever the session had for it. */
  connected?: { token: string; name: string };
  tokenConfirmedAt?: number;
  tasks?: readonly string[];
  /** Whether the page gets live updates; false forgets it. */
  live?: boolean;
  name?: string;
}
