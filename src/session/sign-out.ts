import type { SessionData, Store } from 'express-session';
import type { SessionStoreHandle } from './store';
import { ownerOf } from './user-index';

/** What the person reads on their next request after removing the app at the provider. */
/** The flash (a message key: src/i18n/catalogs) a session signed out by the provider's callback shows next. */
export const SIGNED_OUT_MESSAGE = { key: 'flash.removedApp' };

export interface SignOutOutcome {
  /** Sessions ended. */
  sessions: number;
  /** Pages those sessions had connected: their cached data goes too. */
  pageIds: string[];
  /** Each ended session's id and sealed user token, so what was cached for that token can go too. Memory only. */
  userTokens: { sid: string; sealed: string }[];
}

/**
 * Ends every session of `userId`, wherever it was created (the index is in
 * the shared store): each one's content is replaced by a signed-out session
 * that keeps its cookie and carries a message, so the open tab learns why
 * on its next request.
 */
export async function signOutUser(handle: SessionStoreHandle, userId: string, now: number): Promise<SignOutOutcome> {
  const pageIds = new Set<string>();
  const userTokens: { sid: string; sealed: string }[] = [];
  let sessions = 0;
  for (const sid of await handle.index.sessionsOf(userId)) {
    const sess = await read(handle.store, sid);
    // Re-checked here: the index may be a step behind a session that changed hands or ended.
    if (!sess || ownerOf(sess) !== userId) continue;
    for (const pageId of Object.keys(sess.signIn?.pages ?? {})) pageIds.add(pageId);
    if (sess.signIn?.userToken) userTokens.push({ sid, sealed: sess.signIn.userToken });
    if (await handle.replace(sid, { cookie: sess.cookie, flash: SIGNED_OUT_MESSAGE, signedOutAt: now })) sessions++;
  }
  return { sessions, pageIds: [...pageIds], userTokens };
}

function read(store: Store, sid: string): Promise<SessionData | undefined> {
  return new Promise((resolve, reject) =>
    store.get(sid, (err: unknown, sess?: SessionData | null) =>
      err
        ? reject(err instanceof Error ? err : new Error('session store failed', { cause: err }))
        : resolve(sess ?? undefined),
    ),
  );
}
