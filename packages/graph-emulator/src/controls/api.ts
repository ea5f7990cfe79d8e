/**
 * The JS side of the test controls. Inputs are validated with the same
 * schemas as the HTTP side, so a typo in a test fails loudly instead of
 * silently scripting nothing.
 */
import { z } from 'zod';
import { removeApp } from '../callbacks/remove';
import { grantsPage } from '../store/tokens';
import { feedPositions, type Context } from '../context';
import { ALL_PERMISSIONS, IMPLICIT_PERMISSION, OPENID_SCOPE } from '../permissions';
import { randomId } from '../random';
import { activityControls } from './activity';
import { checkRemovedFields } from '../removed-fields';
import { checkCreated } from '../graph/legacy';
import type {
  ClockMove,
  EmulatorControls,
  Failure,
  IssueTokenRequest,
  RateLimit,
  RemoveAppRequest,
  RemoveAppResult,
  RevokeReason,
  TokenFilter,
} from '../types';
import {
  clockSchema,
  issueTokenSchema,
  latencySchema,
  parseFailure,
  rateLimitSchema,
  refuseMetricSchema,
  appCreatedSchema,
  removeAppSchema,
  removedFieldsSchema,
  roleSchema,
  revokeSchema,
  seedSchema,
  tokenFilterSchema,
} from './schemas';
import { describeZodError } from '../zod-message';
import { SEEDS, type Seed, type SeedName } from '../seed';
import { parseSeed } from '../seeds/schema';

function parse<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof z.ZodError) throw new Error(`${what}: ${describeZodError(err)}`);
    throw err;
  }
}

export function createControls(ctx: Context): EmulatorControls {
  return {
    ...activityControls(ctx),
    expireTokens(filter: TokenFilter = {}): number {
      return ctx.tokens.expire(parse('expireTokens', () => tokenFilterSchema.parse(filter)));
    },
    revokeTokens(filter: TokenFilter & { reason?: RevokeReason } = {}): number {
      const { reason, ...rest } = parse('revokeTokens', () => revokeSchema.parse(filter));
      return ctx.tokens.revoke(rest, reason);
    },
    setLatency(ms: number): void {
      ctx.faults.latencyMs = parse('setLatency', () => latencySchema.parse({ ms })).ms;
    },
    failNext(n: number, failure: Failure): void {
      ctx.faults.failNext(
        n,
        parse('failNext', () => parseFailure(failure)),
      );
    },
    pendingFailures() {
      return ctx.faults.pendingFailures();
    },
    clearFailures(): number {
      return ctx.faults.clearFailures();
    },
    setRateLimit(limit: RateLimit | null): void {
      ctx.usage.setLimit(limit === null ? null : parse('setRateLimit', () => rateLimitSchema.parse(limit)));
    },
    setEmptyFeedPages(positions: readonly number[]): void {
      ctx.emptyFeedPages = feedPositions('setEmptyFeedPages: positions', positions);
    },
    setPageField(pageId: string, field: string, value: unknown): void {
      ctx.data.setPageField(pageId, field, value);
    },
    setRole(userId: string, pageId: string, tasks: string[] | null): void {
      const req = parse('setRole', () => roleSchema.parse({ userId, pageId, tasks }));
      ctx.data.setRole(req.userId, req.pageId, req.tasks);
    },
    refuseMetric(metric: string): void {
      ctx.refusedMetrics.add(parse('refuseMetric', () => refuseMetricSchema.parse({ metric })).metric);
    },
    setRemovedFields(fields: string[]): void {
      ctx.removedFields.set(
        checkRemovedFields(
          parse('setRemovedFields', () => removedFieldsSchema.parse({ fields }).fields),
          'setRemovedFields',
        ),
      );
    },
    removedFields(): string[] {
      return ctx.removedFields.list();
    },
    setAppCreated(day: string, clientId?: string): void {
      const req = parse('setAppCreated', () => appCreatedSchema.parse({ day, clientId }));
      const id = req.clientId ?? ctx.clients.keys().next().value;
      if (id === undefined || !ctx.clients.has(id)) throw new Error(`setAppCreated: no registered app ${id ?? ''}`);
      ctx.appCreated.set(id, checkCreated('setAppCreated: day', req.day));
    },
    moveClock(move: ClockMove): { now: string; published: string[] } {
      const req = parse('moveClock', () => clockSchema.parse(move));
      ctx.clock.moveTo(req.at !== undefined ? Date.parse(req.at) : ctx.now() + (req.advanceMs ?? 0));
      // What fell due in between happens now, webhooks and all, without waiting for the next Graph call.
      const published = ctx.activity.publishDue();
      ctx.activity.arm();
      return { now: new Date(ctx.now()).toISOString(), published };
    },
    clock(): { now: string } {
      return { now: new Date(ctx.now()).toISOString() };
    },
    reset(): void {
      resetAll(ctx);
    },
    loadSeed(seed: SeedName | Seed): void {
      if (typeof seed === 'string') {
        const parsed = parse('loadSeed', () => seedSchema.parse({ name: seed })).name;
        ctx.data.load(SEEDS[parsed]);
        ctx.seedName = parsed;
      } else {
        ctx.data.load(parseSeed(seed, 'loadSeed'));
        ctx.seedName = 'custom';
      }
      resetAll(ctx);
    },
    snapshot(): Seed {
      return ctx.data.snapshot();
    },
    seedName() {
      return ctx.seedName;
    },
    get requestLog() {
      return ctx.log.entries;
    },
    get log() {
      return ctx.log.entries;
    },
    issuedTokens(): string[] {
      return ctx.tokens.all();
    },
    clearLog(): void {
      ctx.log.clear();
    },
    calls(filter = {}): number {
      return ctx.log.calls(filter);
    },
    issueToken(request: IssueTokenRequest) {
      return issueToken(
        ctx,
        parse('issueToken', () => issueTokenSchema.parse(request)),
      );
    },
    async removeApp(request: RemoveAppRequest): Promise<RemoveAppResult> {
      const req = parse('removeApp', () => removeAppSchema.parse(request));
      const client = req.clientId === undefined ? ctx.clients.values().next().value : ctx.clients.get(req.clientId);
      if (client === undefined) throw new Error(`removeApp: unknown client ${req.clientId ?? ''}`);
      if (ctx.data.user(req.userId) === undefined) throw new Error(`removeApp: unknown user ${req.userId}`);
      // Sent even when the person holds no live token, so a test can replay a removal.
      return removeApp(ctx, client, req.userId, req.requestDeletion ?? false);
    },
    callbackDeliveries() {
      return ctx.callbacks.all();
    },
  };
}

/** Back to the loaded seed's data, with no latency, failure, rate limit, log or webhook state. */
function resetAll(ctx: Context): void {
  ctx.data.reset();
  ctx.refusedMetrics.clear();
  ctx.faults.clear(ctx.initialLatencyMs);
  ctx.emptyFeedPages = ctx.initialEmptyFeedPages;
  ctx.usage.reset();
  ctx.log.clear();
  ctx.callbacks.clear();
  ctx.webhooks.reset();
  ctx.removedFields.reset();
  ctx.appCreated = new Map(ctx.initialAppCreated);
  ctx.uploads.clear();
  ctx.activity.arm();
}

/** Mints a token as if the user had approved the dialog (for tests and benchmarks). */
function issueToken(
  ctx: Context,
  req: z.infer<typeof issueTokenSchema>,
): { access_token: string; expires_in: number | null } {
  const client = req.clientId === undefined ? ctx.clients.values().next().value : ctx.clients.get(req.clientId);
  if (client === undefined) throw new Error(`issueToken: unknown client ${req.clientId ?? ''}`);
  if (ctx.data.user(req.userId) === undefined) throw new Error(`issueToken: unknown user ${req.userId}`);
  const scopes = req.scopes ?? ALL_PERMISSIONS.filter((p) => p !== IMPLICIT_PERMISSION && p !== OPENID_SCOPE);
  const longLived = req.longLived ?? false;
  const user = ctx.tokens.issueUser({
    clientId: client.clientId,
    userId: req.userId,
    scopes,
    declined: [],
    ttlSec: longLived ? ctx.longLivedTtlSec : ctx.userTokenTtlSec,
    longLived,
    grantId: `direct:${randomId()}`,
    ...(req.pages !== undefined ? { pages: req.pages } : {}),
  });
  let record = user;
  if (req.pageId !== undefined) {
    if (ctx.data.role(req.userId, req.pageId) === undefined) {
      throw new Error(`issueToken: user ${req.userId} does not manage page ${req.pageId}`);
    }
    if (!grantsPage(user, req.pageId)) throw new Error(`issueToken: page ${req.pageId} is not among \`pages\``);
    record = ctx.tokens.pageTokenFor(user, req.pageId);
  }
  const expiresIn = record.expiresAt === null ? null : Math.round((record.expiresAt - ctx.now()) / 1000);
  return { access_token: record.token, expires_in: expiresIn };
}
