/**
 * `/{page-id}/subscribed_apps` (Graph API reference "Page Subscribed Apps",
 * "Webhooks for Pages"): which apps get the page's webhooks. Reading,
 * creating and deleting all need a page token of that page from a person
 * with the CREATE_CONTENT, MANAGE or MODERATE task, and the
 * `pages_manage_metadata` and `pages_show_list` permissions.
 */
import { badParam, GraphError, missingPermission } from '../errors';
import type { PageState } from '../store/data';
import { hasScope } from './auth';
import type { GraphCall } from './call';

/** Page webhook fields an app can subscribe a page to (the Page webhooks reference; `feed` is what gets delivered here). */
export const PAGE_WEBHOOK_FIELDS: readonly string[] = Object.freeze([
  'feed',
  'mention',
  'name',
  'picture',
  'category',
  'description',
  'conversations',
  'email',
  'hours',
  'location',
  'phone',
  'website',
  'messages',
  'message_reactions',
  'messaging_postbacks',
  'messaging_optins',
  'message_deliveries',
  'message_reads',
  'message_echoes',
  'ratings',
]);
const TASKS_THAT_MAY = ['CREATE_CONTENT', 'MANAGE', 'MODERATE'];

export const pageTokenRequired = (): GraphError =>
  new GraphError({ code: 210, message: '(#210) A page access token is required to request this resource.' });

export async function subscribedApps(call: GraphCall, page: PageState, method: string): Promise<unknown> {
  const { ctx, caller } = call;
  const { record } = caller;
  if (record.kind !== 'page') throw pageTokenRequired();
  if (record.pageId !== page.id) {
    throw new GraphError({ code: 200, message: '(#200) The page access token does not belong to this page' });
  }
  for (const permission of ['pages_manage_metadata', 'pages_show_list']) {
    if (!hasScope(record, permission)) throw missingPermission(permission, 200);
  }
  const tasks = ctx.data.role(record.userId, page.id)?.tasks ?? [];
  if (!tasks.some((t) => TASKS_THAT_MAY.includes(t))) {
    throw new GraphError({
      code: 200,
      message: '(#200) The user must be an admin, editor, or moderator of the page in order to manage its apps',
    });
  }
  if (method === 'get') return list(call, page);
  if (method === 'delete') {
    ctx.webhooks.unsubscribe(page.id, record.clientId);
    return { success: true };
  }
  if (method !== 'post') throw badParam(`Unsupported ${method} request`);
  const fields = parseFields(call.params.subscribed_fields);
  const problem = await ctx.webhooks.ensureVerified(record.clientId);
  if (problem !== undefined) {
    throw new GraphError({
      code: 2200,
      message: `(#2200) Callback verification failed with the following errors: ${problem}`,
    });
  }
  ctx.webhooks.subscribe(page.id, record.clientId, fields);
  return { success: true };
}

function list(call: GraphCall, page: PageState): unknown {
  const data = call.ctx.webhooks.subscribers(page.id).map(({ clientId, fields }) => ({
    name: call.ctx.clients.get(clientId)?.name ?? '',
    id: clientId,
    subscribed_fields: fields,
  }));
  return { data };
}

/** `feed,mention` or the JSON array `["feed","mention"]`, both of which the Graph API takes. */
export function parseFields(raw: string | undefined, param = 'subscribed_fields'): string[] {
  if (raw === undefined || raw.trim() === '') throw badParam(`The parameter ${param} is required.`);
  let names: unknown = raw.split(',').map((s) => s.trim());
  if (raw.trim().startsWith('[')) {
    try {
      names = JSON.parse(raw) as unknown;
    } catch {
      throw badParam(`Param ${param} must be an array.`);
    }
  }
  if (!Array.isArray(names) || names.length === 0) throw badParam(`Param ${param} must be an array.`);
  names.forEach((name: unknown, i) => {
    if (typeof name !== 'string' || !PAGE_WEBHOOK_FIELDS.includes(name)) {
      throw badParam(
        `Param ${param}[${i}] must be one of {${PAGE_WEBHOOK_FIELDS.join(', ')}} - got "${String(name).slice(0, 60)}"`,
      );
    }
  });
  return names as string[];
}
