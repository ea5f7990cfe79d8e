import 'express-session';

/** A login started in one tab and not yet finished (RFC 6749 §10.12, RFC 7636). */
export interface PendingLogin {
  /** state */
  s: string;
  /** PKCE code_verifier */
  v: string;
  /** created, epoch ms */
  t: number;
}

/** A connected page: its sealed page token and its name for the home page. */
export interface ConnectedPage {
  t: string;
  n: string;
}

export interface Connection {
  /** The sealed user token. */
  user: string;
  /** When the user token expires (epoch ms), null when the provider gave no expiry. */
  exp: number | null;
  /** When the person logged in (epoch ms): the absolute lifetime counts from here. */
  at: number;
  /** Permissions granted at login. */
  scopes?: string[];
  pages: Record<string, ConnectedPage>;
}

// Short keys: sessions are many and small (issue 5: ≤ 3 KB each).
declare module 'express-session' {
  interface SessionData {
    pending?: PendingLogin[];
    conn?: Connection;
    csrf?: string;
    /** A one-time message for the next page. */
    flash?: string;
  }
}
