/**
 * Authorization codes (RFC 6749 §4.1.2): random, short-lived, single-use,
 * bound to the client and the redirect_uri of the dialog request, and to the
 * PKCE challenge if one was sent (RFC 7636 §4.4).
 */
import { BoundedMap } from './bounded';
import { randomId } from '../random';

export type ChallengeMethod = 'S256' | 'plain';

export interface CodeRecord {
  code: string;
  clientId: string;
  redirectUri: string;
  userId: string;
  granted: readonly string[];
  declined: readonly string[];
  challenge?: { value: string; method: ChallengeMethod };
  /** OpenID Connect `nonce` from the dialog, echoed in the ID token. */
  nonce?: string;
  /** Pages the person chose at the dialog's page step; absent when the dialog had none. */
  pages?: readonly string[];
  issuedAt: number;
  /** Set on first successful exchange; a second use is refused (36009). */
  usedAt?: number;
}

export type NewCode = Omit<CodeRecord, 'code' | 'issuedAt' | 'usedAt'>;

/**
 * A used or expired code is remembered an hour past its lifetime so a replay
 * still gets the precise "used"/"expired" answer (and revokes the tokens).
 */
const MEMORY_MS = 3_600_000;

export class CodeStore {
  private readonly codes: BoundedMap<CodeRecord>;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {
    this.codes = new BoundedMap<CodeRecord>(20_000, ttlMs + MEMORY_MS, now);
  }

  create(init: NewCode): CodeRecord {
    // Shaped like the provider's codes ("AQ…"); 256 random bits.
    const record: CodeRecord = { ...init, code: `AQ${randomId(32)}`, issuedAt: this.now() };
    this.codes.set(record.code, record);
    return record;
  }

  find(code: string): CodeRecord | undefined {
    return this.codes.get(code);
  }

  isExpired(record: CodeRecord): boolean {
    return this.now() - record.issuedAt > this.ttlMs;
  }

  markUsed(record: CodeRecord): void {
    record.usedAt = this.now();
  }
}
