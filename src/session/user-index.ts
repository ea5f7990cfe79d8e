import type { SessionData } from 'express-session';

/**
 * Sessions by the provider's user id, so a callback that names a person
 * (deauthorize, data deletion) finds every session of theirs. Kept in step by
 * the stores themselves, on every write, destroy, eviction and expiry.
 */
export interface SessionIndex {
  /** Ids of the live sessions whose sign-in belongs to `userId`; members found stale are dropped. */
  sessionsOf(userId: string): Promise<string[]>;
}

/**
 * Sessions one person keeps at once in Redis: a login past it ends their least recently used one. It bounds what
 * a login does to the index (one script over at most this many members), however often one person signs in.
 * @see docs/architecture.md#session-index
 */
export const MAX_SESSIONS_PER_PERSON = 50;

/** The user id a stored session is indexed under, if any. */
export function ownerOf(sess: Pick<Partial<SessionData>, 'signIn'> | null | undefined): string | undefined {
  return sess?.signIn?.userId;
}

/**
 * The memory store's index: two maps, updated synchronously by the store
 * (./store) as sessions are written, destroyed, evicted or expire, so it holds
 * exactly the live sessions that have an owner and can never outgrow the store.
 */
export class MemorySessionIndex implements SessionIndex {
  private readonly byUser = new Map<string, Set<string>>();
  private readonly ownerBySid = new Map<string, string>();

  /** Records `sid` under its session's owner, or forgets it when the session has none (any more). */
  update(sid: string, sess: Pick<Partial<SessionData>, 'signIn'>): void {
    const owner = ownerOf(sess);
    const previous = this.ownerBySid.get(sid);
    if (previous === owner) return;
    this.remove(sid);
    if (owner === undefined) return;
    this.ownerBySid.set(sid, owner);
    let sids = this.byUser.get(owner);
    if (!sids) this.byUser.set(owner, (sids = new Set()));
    sids.add(sid);
  }

  remove(sid: string): void {
    const owner = this.ownerBySid.get(sid);
    if (owner === undefined) return;
    this.ownerBySid.delete(sid);
    const sids = this.byUser.get(owner);
    sids?.delete(sid);
    if (sids?.size === 0) this.byUser.delete(owner);
  }

  clear(): void {
    this.byUser.clear();
    this.ownerBySid.clear();
  }

  sessionsOf(userId: string): Promise<string[]> {
    return Promise.resolve([...(this.byUser.get(userId) ?? [])]);
  }

  /** People and sessions indexed (tests: the index must empty as sessions expire). */
  get size(): { users: number; sessions: number } {
    return { users: this.byUser.size, sessions: this.ownerBySid.size };
  }
}
