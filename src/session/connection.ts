import type { Request } from 'express';
import type { UserTokenGrant } from '../graph/client';
import type { TokenSealer } from './sealer';
import type { Connection } from './types';

/**
 * The person's connection to the provider as kept in the session: tokens are
 * sealed on the way in and opened on the way out. Anything expired, past the
 * absolute lifetime, or that no key opens reads as "not connected".
 */
export class ConnectionKeeper {
  constructor(
    private readonly sealer: TokenSealer,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  start(req: Request, grant: UserTokenGrant, scopes?: string[]): void {
    req.session.conn = { user: this.sealer.seal(grant.token), exp: grant.expiresAt, at: this.now(), pages: {}, ...(scopes ? { scopes } : {}) };
  }

  /** The live connection, or undefined (and dropped) when it has run out. */
  current(req: Request): Connection | undefined {
    const conn = req.session?.conn;
    if (!conn) return undefined;
    const now = this.now();
    if (!wellFormed(conn) || now - conn.at > this.maxAgeMs || (conn.exp !== null && conn.exp <= now)) {
      delete req.session.conn;
      return undefined;
    }
    return conn;
  }

  userToken(req: Request): string | undefined {
    const conn = this.current(req);
    return conn ? this.openOrDrop(req, conn.user) : undefined;
  }

  /** A page token counts only while the login it came from does: a user token that no longer opens ends both. */
  pageToken(req: Request, pageId: string): string | undefined {
    const page = this.current(req)?.pages[pageId];
    if (!page || this.userToken(req) === undefined) return undefined;
    return this.openOrDrop(req, page.t);
  }

  addPage(req: Request, pageId: string, token: string, name: string): void {
    const conn = this.current(req);
    if (conn) conn.pages[pageId] = { t: this.sealer.seal(token), n: name };
  }

  connectedPages(req: Request): { id: string; name: string }[] {
    return Object.entries(this.current(req)?.pages ?? {}).map(([id, p]) => ({ id, name: p.n }));
  }

  drop(req: Request): void {
    delete req.session.conn;
  }

  /** A value no key opens (tampered, or a retired key): treat as not connected. */
  private openOrDrop(req: Request, sealed: string): string | undefined {
    const token = this.sealer.open(sealed);
    if (token === undefined) this.drop(req);
    return token;
  }
}

/** The store is outside the process (Redis): what comes back is checked before it is trusted. */
function wellFormed(conn: Connection): boolean {
  const c = conn as unknown as Record<string, unknown>;
  return (
    typeof c.user === 'string' &&
    typeof c.at === 'number' &&
    Number.isFinite(c.at) &&
    (c.exp === null || (typeof c.exp === 'number' && !Number.isNaN(c.exp))) &&
    typeof c.pages === 'object' &&
    c.pages !== null &&
    !Array.isArray(c.pages) &&
    Object.values(c.pages as Record<string, unknown>).every(
      (p) => typeof p === 'object' && p !== null && typeof (p as { t?: unknown }).t === 'string' && typeof (p as { n?: unknown }).n === 'string',
    )
  );
}
