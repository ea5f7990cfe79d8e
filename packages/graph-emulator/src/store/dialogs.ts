/**
 * Dialog requests waiting for the person's decision. The decision form only
 * carries this id: client, redirect_uri, state and PKCE challenge stay on the
 * server, so a tampered form cannot redirect a code elsewhere.
 *
 * Bounded per client address and overall, and a full store refuses new
 * dialogs instead of dropping waiting ones: a flood of anonymous dialog GETs
 * must not end a real person's login half way.
 */
import type { ChallengeMethod } from './codes';
import { randomId } from '../random';

export interface DialogRequest {
  id: string;
  clientId: string;
  redirectUri: string;
  state?: string;
  scopes: readonly string[];
  challenge?: { value: string; method: ChallengeMethod };
  /** OpenID Connect `nonce`, echoed in the ID token. */
  nonce?: string;
  /** What the redirect carries (`response_type`); docs/specification.md#redirect-fragment. */
  response: ResponseTypes;
  /** `auth_type=rerequest`: permissions declined before are asked again. */
  rerequest: boolean;
  /** `auth_type=reauthenticate`: the person confirms their password first. */
  reauthenticate: boolean;
}

/** The manual flow's `response_type` values: `code`, `token`, and `granted_scopes` added to either. */
export interface ResponseTypes {
  code: boolean;
  token: boolean;
  grantedScopes: boolean;
}

/** Like the real dialog, an abandoned login page goes stale after a while. */
const DIALOG_TTL_MS = 30 * 60_000;
export const MAX_PENDING_PER_CLIENT = 100;
export const MAX_PENDING = 10_000;

interface Entry {
  request: DialogRequest;
  from: string;
  at: number;
}

export class DialogStore {
  /** Insertion order is age order, so expired entries are found at the front. */
  private readonly pending = new Map<string, Entry>();
  private readonly perClient = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** A new pending dialog for the client at address `from`; `undefined` when that client or the store is full. */
  open(from: string, init: Omit<DialogRequest, 'id'>): DialogRequest | undefined {
    this.prune();
    if (this.pending.size >= MAX_PENDING || (this.perClient.get(from) ?? 0) >= MAX_PENDING_PER_CLIENT) return undefined;
    const request: DialogRequest = { ...init, id: randomId() };
    this.pending.set(request.id, { request, from, at: this.now() });
    this.perClient.set(from, (this.perClient.get(from) ?? 0) + 1);
    return request;
  }

  /** Single use: a decision consumes the request. */
  take(id: string): DialogRequest | undefined {
    const entry = this.pending.get(id);
    if (entry === undefined) return undefined;
    this.remove(id, entry);
    return this.now() - entry.at > DIALOG_TTL_MS ? undefined : entry.request;
  }

  get size(): number {
    return this.pending.size;
  }

  private prune(): void {
    const limit = this.now() - DIALOG_TTL_MS;
    for (const [id, entry] of this.pending) {
      if (entry.at >= limit) break;
      this.remove(id, entry);
    }
  }

  private remove(id: string, entry: Entry): void {
    this.pending.delete(id);
    const left = (this.perClient.get(entry.from) ?? 1) - 1;
    if (left <= 0) this.perClient.delete(entry.from);
    else this.perClient.set(entry.from, left);
  }
}
