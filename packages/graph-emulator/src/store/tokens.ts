/**
 * Access tokens the emulator has issued, with the lifecycle rules of the
 * real provider (https://developers.facebook.com/docs/facebook-login/guides/access-tokens):
 * short-lived user tokens expire; a page token derived from a short-lived user
 * token expires with it, one derived from a long-lived user token never
 * expires; revoking a user's session invalidates the tokens derived from it.
 */
import type { RevokeReason, TokenFilter } from '../types';
import type { CodeRecord } from './codes';
import { randomAlnum } from '../random';
import { expiredError, revokedError, unknownTokenError } from './token-errors';

export interface TokenRecord {
  token: string;
  kind: 'user' | 'page';
  clientId: string;
  userId: string;
  pageId?: string;
  /** Granted permissions (a page token carries those of its user token). */
  scopes: readonly string[];
  /** Requested at the dialog but unchecked by the person. */
  declined: readonly string[];
  issuedAt: number;
  /** Epoch ms; null = never expires. */
  expiresAt: number | null;
  longLived: boolean;
  /** The authorization grant the chain started from (RFC 6749 §4.1.2: revoke on code reuse). */
  grantId: string;
  /**
   * Pages the person chose at the dialog (docs/specification.md#page-selection):
   * only these are listed and get page tokens. Absent: every Page they manage.
   */
  pages?: readonly string[];
  /** The user token a page token was derived from. */
  parent?: string;
  revoked?: RevokeReason;
}

export interface IssueUser {
  clientId: string;
  userId: string;
  scopes: readonly string[];
  declined: readonly string[];
  ttlSec: number;
  longLived: boolean;
  grantId: string;
  pages?: readonly string[];
}

/** Beyond this many tokens the oldest are forgotten (benchmarks issue many). */
const MAX_TOKENS = 100_000;

export class TokenStore {
  private readonly tokens = new Map<string, TokenRecord>();
  /** user token → page id → page token, so repeated reads return the same page token. */
  private readonly derived = new Map<string, Map<string, string>>();
  /** person at app → what they declined and have not granted since (`declinedBefore`). */
  private readonly declined = new Map<string, Set<string>>();

  constructor(private readonly now: () => number) {}

  /** The short-lived user token an authorization code stands for: at the token endpoint, or in the dialog's fragment. */
  issueForCode(code: CodeRecord, ttlSec: number): TokenRecord {
    return this.issueUser({
      clientId: code.clientId,
      userId: code.userId,
      scopes: code.granted,
      declined: code.declined,
      ttlSec,
      longLived: false,
      grantId: code.code,
      ...(code.pages !== undefined ? { pages: code.pages } : {}),
    });
  }

  issueUser(req: IssueUser): TokenRecord {
    const issuedAt = this.now();
    return this.add({
      token: newToken(),
      kind: 'user',
      clientId: req.clientId,
      userId: req.userId,
      scopes: [...req.scopes],
      declined: [...req.declined],
      issuedAt,
      expiresAt: issuedAt + req.ttlSec * 1000,
      longLived: req.longLived,
      grantId: req.grantId,
      ...(req.pages !== undefined ? { pages: [...req.pages] } : {}),
    });
  }

  /** The page token for `pageId` derived from a (valid) user token. */
  /**
   * `viaPortfolio`: the person reaches the Page through a business portfolio, which the dialog's page step
   * does not list; the page token then covers that Page whatever the step chose.
   */
  pageTokenFor(user: TokenRecord, pageId: string, viaPortfolio = false): TokenRecord {
    const known = this.derived.get(user.token)?.get(pageId);
    const existing = known === undefined ? undefined : this.tokens.get(known);
    if (existing !== undefined && existing.revoked === undefined && !isPast(existing.expiresAt, this.now())) {
      return existing;
    }
    const record = this.add({
      token: newToken(),
      kind: 'page',
      clientId: user.clientId,
      userId: user.userId,
      pageId,
      scopes: user.scopes,
      declined: user.declined,
      issuedAt: this.now(),
      expiresAt: user.longLived ? null : user.expiresAt,
      longLived: user.longLived,
      grantId: user.grantId,
      ...(user.pages !== undefined ? { pages: viaPortfolio ? [...user.pages, pageId] : user.pages } : {}),
      parent: user.token,
    });
    const byPage = this.derived.get(user.token) ?? new Map<string, string>();
    byPage.set(pageId, record.token);
    this.derived.set(user.token, byPage);
    return record;
  }

  all(): string[] {
    return [...this.tokens.keys()];
  }

  find(token: string): TokenRecord | undefined {
    return this.tokens.get(token);
  }

  /** The record if the token is usable, else the 190 error the Graph API gives. */
  validate(token: string): TokenRecord {
    const record = this.tokens.get(token);
    if (record === undefined) throw unknownTokenError();
    if (record.revoked !== undefined) throw revokedError(record);
    const now = this.now();
    if (record.expiresAt !== null && now >= record.expiresAt) throw expiredError(record.expiresAt, now);
    return record;
  }

  /** Expire matching tokens now. A filter on `token` includes tokens derived from it. */
  expire(filter: TokenFilter = {}): number {
    const now = this.now();
    let count = 0;
    for (const record of this.matching(filter)) {
      if (record.expiresAt === null || record.expiresAt > now) {
        record.expiresAt = now;
        count++;
      }
    }
    return count;
  }

  revoke(filter: TokenFilter = {}, reason: RevokeReason = 'password_changed'): number {
    return revokeEach(this.matching(filter), reason);
  }

  revokeGrant(grantId: string, reason: RevokeReason): number {
    return revokeEach(
      this.where((record) => record.grantId === grantId),
      reason,
    );
  }

  /** Removing an app: every token of that person for that client, user and page alike (190/458). */
  revokeApp(userId: string, clientId: string): number {
    // A removed app starts over: its next login asks for everything again.
    this.declined.delete(personAtApp(userId, clientId));
    return revokeEach(
      this.where((record) => record.userId === userId && record.clientId === clientId),
      'app_removed',
    );
  }

  /**
   * The apps a person has authorised: clients with a token not revoked, and
   * since when. An expired token still counts, as the provider keeps the app
   * in the person's settings until it is removed.
   */
  authorisedClients(userId: string): Map<string, number> {
    const since = new Map<string, number>();
    for (const record of this.tokens.values()) {
      if (record.userId !== userId || record.revoked !== undefined) continue;
      const known = since.get(record.clientId);
      if (known === undefined || record.issuedAt < known) since.set(record.clientId, record.issuedAt);
    }
    return since;
  }

  /**
   * What the person declined at a login to this app and has not granted since: the dialog does not ask
   * for it again, whatever the logins in between asked for, until the app says `auth_type=rerequest`
   * ("Manually Build a Login Flow", Re-asking for Declined Permissions; docs/specification.md#login-dialog).
   */
  declinedBefore(userId: string, clientId: string): readonly string[] {
    return [...(this.declined.get(personAtApp(userId, clientId)) ?? [])];
  }

  /** The person's answer at the dialog: what they declined is remembered, what they granted is forgotten. */
  rememberDecision(userId: string, clientId: string, granted: readonly string[], declined: readonly string[]): void {
    const key = personAtApp(userId, clientId);
    const kept = new Set(this.declined.get(key) ?? []);
    for (const permission of granted) kept.delete(permission);
    for (const permission of declined) kept.add(permission);
    this.declined.delete(key);
    if (kept.size > 0) this.declined.set(key, kept);
    // Oldest first out, as for the tokens.
    while (this.declined.size > MAX_TOKENS) {
      const oldest = this.declined.keys().next();
      if (oldest.done === true) break;
      this.declined.delete(oldest.value);
    }
  }

  private *matching(filter: TokenFilter): Generator<TokenRecord> {
    for (const record of this.tokens.values()) {
      if (filter.userId !== undefined && record.userId !== filter.userId) continue;
      if (filter.pageId !== undefined && record.pageId !== filter.pageId) continue;
      if (filter.token !== undefined && record.token !== filter.token && record.parent !== filter.token) continue;
      yield record;
    }
  }

  private *where(keep: (record: TokenRecord) => boolean): Generator<TokenRecord> {
    for (const record of this.tokens.values()) if (keep(record)) yield record;
  }

  private add(record: TokenRecord): TokenRecord {
    this.tokens.set(record.token, record);
    while (this.tokens.size > MAX_TOKENS) {
      const oldest = this.tokens.keys().next();
      if (oldest.done === true) break;
      this.tokens.delete(oldest.value);
      this.derived.delete(oldest.value);
    }
    return record;
  }
}

/** Revokes each record not revoked yet, for `reason`; how many were. */
function revokeEach(records: Iterable<TokenRecord>, reason: RevokeReason): number {
  let count = 0;
  for (const record of records) {
    if (record.revoked === undefined) {
      record.revoked = reason;
      count++;
    }
  }
  return count;
}

/** Whether the grant behind a token covers the page (a grant without a page step covers all). */
export function grantsPage(record: TokenRecord, pageId: string): boolean {
  return record.pages === undefined || record.pages.includes(pageId);
}

function isPast(expiresAt: number | null, now: number): boolean {
  return expiresAt !== null && now >= expiresAt;
}

function personAtApp(userId: string, clientId: string): string {
  return `${clientId} ${userId}`;
}

/**
 * Every user and page token starts with this: the provider's `EAA`, so log scrubbers and secret scanners keyed
 * on it treat an emulator token as a real one, then `_EMULATOR_`, which no real token has (the provider's are
 * letters and digits), so a token seen anywhere says where it came from (docs/specification.md#token-form).
 */
export const EMULATOR_TOKEN_PREFIX = 'EAA_EMULATOR_';

/** Long and opaque after the prefix, as the provider's are. */
function newToken(): string {
  return `${EMULATOR_TOKEN_PREFIX}${randomAlnum(128)}`;
}
