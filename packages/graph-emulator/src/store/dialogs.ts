/**
 * Dialog requests waiting for the person's decision. The decision form only
 * carries this id: client, redirect_uri, state and PKCE challenge stay on the
 * server, so a tampered form cannot redirect a code elsewhere.
 */
import type { ChallengeMethod } from './codes';
import { BoundedMap } from './bounded';
import { randomId } from './random';

export interface DialogRequest {
  id: string;
  clientId: string;
  redirectUri: string;
  state?: string;
  scopes: readonly string[];
  challenge?: { value: string; method: ChallengeMethod };
}

/** Like the real dialog, an abandoned login page goes stale after a while. */
const DIALOG_TTL_MS = 30 * 60_000;
const MAX_PENDING = 1_000;

export class DialogStore {
  private readonly pending: BoundedMap<DialogRequest>;

  constructor(now: () => number) {
    this.pending = new BoundedMap<DialogRequest>(MAX_PENDING, DIALOG_TTL_MS, now);
  }

  open(init: Omit<DialogRequest, 'id'>): DialogRequest {
    const request: DialogRequest = { ...init, id: randomId() };
    this.pending.set(request.id, request);
    return request;
  }

  /** Single use: a decision consumes the request. */
  take(id: string): DialogRequest | undefined {
    return this.pending.take(id);
  }
}
