/**
 * What every write by a Page asks of its caller (docs/reference.md#comment-moderation): a page token of that
 * Page, the permission the write needs granted to the app, and a task of the person on the Page that allows it.
 * The checks run in that order, before anything changes; each refusal is the provider's error.
 */
import type { Context } from '../context';
import { badParam, GraphError } from '../errors';
import type { PageState } from '../store/data';
import { grantsPage, type TokenRecord } from '../store/tokens';
import { hasScope } from './auth';
import type { GraphCall } from './call';
import { pageTokenRequired } from './subscribed-apps';

/** Moderating (hiding, deleting another's comment) needs MODERATE (Pages API "Comments and @mentions" guide). */
export const MODERATE_TASKS: readonly string[] = Object.freeze(['MODERATE']);

/**
 * Acting as the Page (replying, liking): the guide lists MODERATE and CREATE_CONTENT; the Posts guide lists
 * CREATE_CONTENT, MANAGE and MODERATE. Read as "any of" (docs/reference.md#comment-moderation).
 */
export const ENGAGE_TASKS: readonly string[] = Object.freeze(['CREATE_CONTENT', 'MODERATE', 'MANAGE']);

/** The person's tasks on the Page behind a token: their own role, else their business portfolio's. */
export function tasksOf(ctx: Context, record: TokenRecord, pageId: string): readonly string[] {
  return ctx.data.role(record.userId, pageId)?.tasks ?? ctx.data.portfolioTasks(record.userId, pageId) ?? [];
}

/** The caller is the Page itself: a page token of this Page, for a Page the person chose at the dialog. */
export function isPageViewer(call: GraphCall, page: PageState): boolean {
  const { record } = call.caller;
  return record.kind === 'page' && record.pageId === page.id && grantsPage(record, page.id);
}

export function hasAnyTask(tasks: readonly string[], wanted: readonly string[]): boolean {
  return tasks.some((t) => wanted.includes(t));
}

/** A write the app may make without the person's consent to it: 200, naming the permission. */
export const writePermissionMissing = (permission: string): GraphError =>
  new GraphError({
    code: 200,
    message: `(#200) This endpoint requires the '${permission}' permission`,
    userTitle: 'Permission needed',
    userMessage: `This app doesn't have permission to act on this Page (${permission}). Log in again and allow it.`,
  });

/** The person's role on the Page does not include the task (code 200). */
export const taskMissing = (): GraphError =>
  new GraphError({
    code: 200,
    message: '(#200) The user does not have sufficient administrative permission for this action on this page',
  });

/**
 * Throws the provider's error unless the caller may make this write on `page`: a page token (210), of this Page
 * (200), with `permission` granted (200) and one of `tasks` (200).
 */
export function requirePageWrite(call: GraphCall, page: PageState, permission: string, tasks: readonly string[]): void {
  const { record } = call.caller;
  if (record.kind !== 'page') throw pageTokenRequired();
  if (!isPageViewer(call, page)) {
    throw new GraphError({ code: 200, message: '(#200) The page access token does not belong to this page' });
  }
  if (!hasScope(record, permission)) throw writePermissionMissing(permission);
  if (!hasAnyTask(tasksOf(call.ctx, record, page.id), tasks)) throw taskMissing();
}

/** The provider takes `true`/`false` (and `1`/`0`) for a boolean parameter; anything else is its 100. */
export function booleanOf(name: string, raw: string): boolean {
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw badParam(`Param ${name} must be a boolean`);
}
