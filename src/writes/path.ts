import type { AppContext } from '../context';
import { AppError, WriteForbiddenError, type ErrorCode } from '../errors';
import { GraphApiError, ProviderUnavailableError } from '../graph/errors';
import type { Say } from '../i18n/locale';
import type { WriteDone } from '../observe/observer';
import { intentKey, type Claim } from './keys';

/**
 * The one write path (docs/architecture.md#writes): every write of the Page's — a reply, a like, hiding, deleting,
 * and publishing after them — is a {@link WriteAction} run through these steps, in this order. CSRF comes first,
 * at the route (`requireCsrf`), before the body is read for anything else; everything below takes values.
 *
 * Nothing here is retried: a provider write that may have happened is never sent again blindly. A read may be.
 */
export const WRITE_STEPS = [
  /** The session holds the Page's token, else 403 with no provider call: the page pipeline's own token step (src/pages/pipeline.ts, `withoutToken: 'forbidden'`). */
  'token',
  /** The person's tasks on the Page allow the action (else 403). */
  'task',
  /** The object is the Page's: a post's id names the Page, a comment's names one of its posts (else 403). */
  'belongs',
  /** The app was granted the action's permission (else a refusal in words, the text kept, no provider call). */
  'permission',
  /** The form's one-time key: the first request claims it; a repeat answers what the first got. */
  'claim',
  /** The session's writes a minute, counted apart from its reads. */
  'budget',
  /** The provider call, once, under the Page's budget. */
  'call',
  /** Its answer as an outcome: done, refused (with why), or unknown (no answer in time). */
  'outcome',
  /** Read after write: the cached parts it changed, and the open pages told. */
  'cache',
  /** One log line and one metric. */
  'audit',
] as const;

/** Who writes: what the route read from the session, as values. */
export interface Writer {
  sessionId: string;
  /** This request's number: its write counts once against the session's writes a minute. */
  request: number;
  /** The person's app-scoped id, for the audit line. */
  userId: string | undefined;
  pageId: string;
  /** The person's tasks on the Page, as fresh as the page cache's rules keep them (src/pages/load.ts roleOf). */
  tasks: readonly string[] | undefined;
  /** The permissions granted at login, when the provider listed them. */
  scopes: readonly string[] | undefined;
}

/** What a write made: the provider's object (the new comment's id, or the object acted on). */
export interface Written {
  objectId: string;
}

/** One kind of write, declared: what allows it, what it calls, how it is checked and what it changes. */
export interface WriteAction<I> {
  /** Its name in the audit line and the metric. */
  name: string;
  /** Any of these tasks on the Page allows it (the provider's documents, cited where the action is declared). */
  tasks: readonly string[];
  /** The permission it needs. */
  permission: string;
  /** What the intent is, for its key: the action and its object, never the text. */
  intent(input: I): string;
  /** Whether the object is the Page's (its id alone; no provider call). */
  belongs(pageId: string, input: I): boolean;
  /** The provider call. Called once per key; never retried. */
  send(ctx: AppContext, writer: Writer, token: string, input: I): Promise<Written>;
  /**
   * Whether a write that got no answer in time happened, by reading: what it made when it did, undefined when
   * it did not. `since`: when it was sent (epoch ms).
   */
  happened(ctx: AppContext, writer: Writer, token: string, input: I, since: number): Promise<Written | undefined>;
  /** Read after write: drops or updates the cached parts it changed, and tells the pages open on them. */
  applied(ctx: AppContext, writer: Writer, input: I, written: Written): void;
}

/** Why a write was refused, as kept for its repeats (JSON): the error's code and what its words need. */
export interface Refusal {
  code: ErrorCode;
  graphCode?: number;
  subcode?: number;
  permission?: string;
  retryAfterSec?: number;
  userTitle?: string;
  userMessage?: string;
  /** This app's own words for it, when the form was refused before any provider call (`write_unsendable`). */
  say?: Say;
}

/** A kept refusal as the typed error it was, for its words (src/http/errors.ts refusalWords: the one table). */
export class RefusedWrite extends AppError {
  constructor(refusal: Refusal) {
    super(refusal.code, refusal.say ?? 'The write was refused.');
    const { code: _code, graphCode: _graphCode, say: _say, ...rest } = refusal;
    Object.assign(this, rest);
  }
}

/**
 * How a write ended, as the form shows it: done; refused (the text kept, with why); unknown (no answer came in
 * time, so whether it happened is not known: the form offers to check, with the same key); absent (checked: it
 * did not happen, so the form offers to send it again, with a new key); busy (the first request with this key is
 * still waiting for its answer).
 */
export type WriteOutcome =
  | { status: 'done'; objectId: string }
  | { status: 'refused'; refusal: Refusal }
  | { status: 'unknown'; since: number }
  | { status: 'absent' }
  | { status: 'busy' };

/** What a key records: the outcome as the first request got it. */
type Recorded = WriteOutcome;

/** A repeat waits at most this long beyond the provider's timeout for the first request's outcome. */
const REPEAT_WAIT_EXTRA_MS = 1000;
const REPEAT_POLL_MS = 50;

/**
 * Runs one write through {@link WRITE_STEPS}: throws WriteForbiddenError (403) when the session may not make it,
 * before any provider call; otherwise the outcome, the first request's for a repeat.
 */
export async function runWrite<I>(
  ctx: AppContext,
  writer: Writer,
  token: string,
  action: WriteAction<I>,
  input: I,
  formKey: string,
): Promise<WriteOutcome> {
  const { pageId } = writer;
  const audit = (outcome: WriteDone['outcome'], objectId?: string) =>
    auditWrite(ctx, writer, action.name, outcome, objectId);
  // (token, at the pipeline) → task → belongs: the order the docs give, each a 403 with no provider call.
  if (!writer.tasks?.some((task) => action.tasks.includes(task))) return forbidden(audit, 'task');
  if (!action.belongs(pageId, input)) return forbidden(audit, 'belongs');
  if (writer.scopes !== undefined && !writer.scopes.includes(action.permission)) {
    audit('refused');
    return { status: 'refused', refusal: { code: 'graph_permission', permission: action.permission } };
  }
  const key = `write:${intentKey(writer.sessionId, formKey, `${pageId} ${action.intent(input)}`)}`;
  let claim: Claim<Recorded>;
  try {
    claim = await ctx.writeKeys.claim<Recorded>(key);
  } catch (err) {
    // Not knowing whether another request holds the key, the write is not made: the text stays, with why.
    ctx.logger.warn({ err, action: action.name, pageId }, 'write: the one-time key could not be claimed');
    audit('refused');
    return { status: 'refused', refusal: { code: 'session_store_unavailable' } };
  }
  if (claim.state !== 'first') return repeat(ctx, writer, action, input, token, key, claim, audit);
  // The session's writes a minute, apart from its reads (docs/architecture.md#fairness-between-sessions).
  try {
    await ctx.writeRateLimit.count(writer);
  } catch (err) {
    return settle(ctx, key, audit, { status: 'refused', refusal: refusalOf(err) });
  }
  const since = ctx.now();
  let outcome: WriteOutcome;
  try {
    const written = await action.send(ctx, writer, token, input);
    outcome = { status: 'done', objectId: written.objectId };
    action.applied(ctx, writer, input, written);
  } catch (err) {
    outcome = noAnswer(err)
      ? { status: 'unknown', since }
      : { status: 'refused', refusal: refusalOf(err, action.permission) };
    if (outcome.status === 'refused') ctx.logger.info({ err, action: action.name, pageId }, 'write refused');
  }
  return settle(ctx, key, audit, outcome);
}

/** Keeps the first request's outcome for its repeats, then the audit. */
async function settle(
  ctx: AppContext,
  key: string,
  audit: (outcome: WriteDone['outcome'], objectId?: string) => void,
  outcome: WriteOutcome,
  label?: WriteDone['outcome'],
): Promise<WriteOutcome> {
  await ctx.writeKeys.record(key, outcome).catch((err: unknown) => {
    ctx.logger.warn({ err }, 'write: its outcome could not be kept for repeats; they will wait, then say so');
  });
  audit(
    label ?? (outcome.status === 'done' ? 'done' : outcome.status === 'unknown' ? 'unknown' : 'refused'),
    outcome.status === 'done' ? outcome.objectId : undefined,
  );
  return outcome;
}

/**
 * A request with a key already claimed: what the first got, once it has it. When the first got no answer in
 * time, this repeat is the person asking to check: the write is looked for by reading, never sent again.
 */
async function repeat<I>(
  ctx: AppContext,
  writer: Writer,
  action: WriteAction<I>,
  input: I,
  token: string,
  key: string,
  claim: Claim<Recorded>,
  audit: (outcome: WriteDone['outcome'], objectId?: string) => void,
): Promise<WriteOutcome> {
  let known = claim;
  const until = ctx.now() + ctx.config.providerTimeoutMs + REPEAT_WAIT_EXTRA_MS;
  while (known.state === 'pending' && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, REPEAT_POLL_MS));
    known = await ctx.writeKeys.peek<Recorded>(key).catch(() => known);
  }
  if (known.state !== 'recorded') {
    audit('repeat');
    return { status: 'busy' };
  }
  const first = known.recorded;
  if (first.status !== 'unknown') {
    audit('repeat', first.status === 'done' ? first.objectId : undefined);
    return first;
  }
  // Checked by reading: the write happened after all, or it did not (then the form offers a new key).
  try {
    const found = await action.happened(ctx, writer, token, input, first.since);
    if (found === undefined) return settle(ctx, key, audit, { status: 'absent' }, 'checked_absent');
    action.applied(ctx, writer, input, found);
    return settle(ctx, key, audit, { status: 'done', objectId: found.objectId }, 'checked_done');
  } catch (err) {
    // The check itself failed: still unknown; the form offers to check again.
    ctx.logger.info({ err, action: action.name, pageId: writer.pageId }, 'write: the check by reading failed');
    audit('unknown');
    return first;
  }
}

function forbidden(audit: (outcome: WriteDone['outcome']) => void, step: 'task' | 'belongs'): never {
  audit('forbidden');
  throw new WriteForbiddenError(step);
}

/**
 * No answer that says what happened: the provider's time ran out, or it answered with something that is not its
 * API (a gateway's page). The write may have been made.
 */
function noAnswer(err: unknown): boolean {
  return err instanceof ProviderUnavailableError && err.reason !== 'unreachable';
}

/** A refusal as kept for repeats: the typed error's code and what its words need (src/http/errors.ts). */
function refusalOf(err: unknown, permission?: string): Refusal {
  if (!(err instanceof AppError)) return { code: 'provider_unreachable' };
  const refusal: Refusal = { code: err.code };
  if (err instanceof GraphApiError) refusal.graphCode = err.graph.code;
  if (err.subcode !== undefined) refusal.subcode = err.subcode;
  // A permission refusal that names none is the action's own permission (or the person's task: the words say both).
  if (err.permission !== undefined) refusal.permission = err.permission;
  else if (err.code === 'graph_permission' && permission !== undefined) refusal.permission = permission;
  if (err.retryAfterSec !== undefined) refusal.retryAfterSec = err.retryAfterSec;
  if (err.userTitle !== undefined) refusal.userTitle = err.userTitle;
  if (err.userMessage !== undefined) refusal.userMessage = err.userMessage;
  // This app's own words for a form the provider would not take (`write_unsendable`).
  if (err.code === 'write_unsendable' && err.say !== undefined) refusal.say = err.say;
  return refusal;
}

/** One log line and one metric per write: never its text, never a token. */
function auditWrite(
  ctx: AppContext,
  writer: Writer,
  action: string,
  outcome: WriteDone['outcome'],
  objectId: string | undefined,
): void {
  ctx.logger.info({ audit: { action, pageId: writer.pageId, userId: writer.userId, outcome, objectId } }, 'page write');
  ctx.observer?.write?.({ action, outcome });
}
