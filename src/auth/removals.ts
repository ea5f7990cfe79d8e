import { createHmac } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '../context';
import { parseJson } from '../json';
import type { SignOutOutcome } from '../session/sign-out';
import { PENDING_TTL_MS } from './pending';

/**
 * What removing the app did for one person, kept in the records store (`ctx.sessions.records`, so every instance
 * reads it) under an HMAC of their id with the app secret: a dump of the store does not name them. The deauthorize
 * callback adds to it and the data-deletion callback that follows reports it; its time refuses a login that began
 * before it.
 */
export interface Removal {
  /** When the provider last told us of a removal or deletion (epoch ms). */
  at: number;
  /** Sessions ended, and the Pages whose cached data was dropped, since the last deletion. */
  sessions: number;
  pageIds: string[];
}

/** How long a deauthorize's counts wait for the deletion callback: the provider sends it at once, or the person asks later. */
export const REMOVAL_RECORD_SEC = 30 * 24 * 60 * 60;
/** After a deletion only the time is kept, for as long as a login begun before it could still come back. */
export const REMOVAL_TIME_SEC = Math.ceil(PENDING_TTL_MS / 1000) + 60;

const removalSchema = z.object({
  at: z.number().finite(),
  sessions: z.number().int().nonnegative(),
  pageIds: z.array(z.string().regex(/^\d{1,32}$/)).max(10_000),
});

function keyOf(ctx: AppContext, userId: string): string {
  return `removed:${createHmac('sha256', ctx.config.appSecret).update(`person:${userId}`).digest('base64url')}`;
}

export async function readRemoval(ctx: AppContext, userId: string): Promise<Removal | undefined> {
  const raw = await ctx.sessions.records.get(keyOf(ctx, userId));
  const parsed = raw === undefined ? undefined : removalSchema.safeParse(parseJson(raw));
  return parsed?.success ? parsed.data : undefined;
}

/** Adds what was just ended to what earlier callbacks ended, stamped now. */
export async function addRemoval(ctx: AppContext, userId: string, outcome: SignOutOutcome): Promise<Removal> {
  const before = await readRemoval(ctx, userId);
  const removal: Removal = {
    at: ctx.now(),
    sessions: (before?.sessions ?? 0) + outcome.sessions,
    pageIds: [...new Set([...(before?.pageIds ?? []), ...outcome.pageIds])],
  };
  await ctx.sessions.records.put(keyOf(ctx, userId), JSON.stringify(removal), REMOVAL_RECORD_SEC);
  return removal;
}

/** Once reported, nothing of it stays but its time, briefly (for {@link removedSince}). */
export async function settleRemoval(ctx: AppContext, userId: string): Promise<void> {
  const settled: Removal = { at: ctx.now(), sessions: 0, pageIds: [] };
  await ctx.sessions.records.put(keyOf(ctx, userId), JSON.stringify(settled), REMOVAL_TIME_SEC);
}

/** Whether the person removed the app at or after `startedAt`: a login begun then must not complete. */
export async function removedSince(ctx: AppContext, userId: string, startedAt: number): Promise<boolean> {
  const removal = await readRemoval(ctx, userId);
  return removal !== undefined && removal.at >= startedAt;
}
