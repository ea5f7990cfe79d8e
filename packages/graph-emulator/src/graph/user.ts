/**
 * The User node and its edges the flow uses: `/me`, `/me/permissions`
 * (https://developers.facebook.com/docs/graph-api/reference/user/permissions)
 * `/me/accounts` (https://developers.facebook.com/docs/graph-api/reference/user/accounts) and
 * `/me/businesses` (./business.ts).
 */
import { missingPermission, nonexistingField } from '../errors';
import { IMPLICIT_PERMISSION } from '../permissions';
import type { SeedUser } from '../seed';
import { grantsPage } from '../store/tokens';
import { hasScope } from './auth';
import { businessesEdge } from './business';
import { edgeLinks, type GraphCall } from './call';
import { namesOf, parseFields, withId } from './fields';
import { paginate, parsePageQuery, type Paged } from './paging';
import { scalars, validate } from './select';

const USER_FIELDS = ['id', 'name', 'first_name', 'last_name', 'email'];
const ACCOUNT_FIELDS = ['id', 'name', 'category', 'access_token', 'tasks', 'link', 'username'];
const ACCOUNT_DEFAULTS = ['id', 'name', 'category', 'access_token', 'tasks'];
const USER = scalars('User', USER_FIELDS);
const ACCOUNT = scalars('Page', ACCOUNT_FIELDS);

export function userNode(call: GraphCall, user: SeedUser): Record<string, unknown> {
  const requests = withId(parseFields(call.params.fields, ['id', 'name']));
  validate(requests, USER);
  const fields = namesOf(requests);
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    // Without the `email` permission the field is silently left out, as on the real API.
    if (field === 'email' && !hasScope(call.caller.record, 'email')) continue;
    out[field] = user[field as keyof SeedUser];
  }
  return out;
}

export function userEdge(call: GraphCall, user: SeedUser, edge: string): unknown {
  if (edge === 'permissions') return permissions(call);
  if (edge === 'accounts') return accounts(call, user);
  if (edge === 'businesses') return businessesEdge(call, user);
  throw nonexistingField(edge, 'User');
}

/** Granted (including the implicit public_profile), then declined, each once. */
function permissions(call: GraphCall): { data: { permission: string; status: string }[] } {
  const { scopes, declined } = call.caller.record;
  const granted = [IMPLICIT_PERMISSION, ...scopes.filter((s) => s !== IMPLICIT_PERMISSION)];
  return {
    data: [
      ...granted.map((permission) => ({ permission, status: 'granted' })),
      ...declined.map((permission) => ({ permission, status: 'declined' })),
    ],
  };
}

function accounts(call: GraphCall, user: SeedUser): Paged<Record<string, unknown>> {
  const { ctx, caller } = call;
  if (!hasScope(caller.record, 'pages_show_list')) throw missingPermission('pages_show_list', 200);
  const requests = withId(parseFields(call.params.fields, ACCOUNT_DEFAULTS));
  validate(requests, ACCOUNT);
  const fields = namesOf(requests);
  // Only the Pages the person chose at the dialog's page step (docs/provider-interface.md#page-selection).
  const managed = ctx.data.managed(user.id).filter((m) => grantsPage(caller.record, m.page.id));
  const paged = paginate(
    managed,
    (m) => m.page.id,
    parsePageQuery(call.params, ctx.accountsPageSize, ctx.accountsPageSize),
    `accounts.${user.id}`,
    edgeLinks(call, user.id, 'accounts'),
  );
  const data = paged.data.map(({ page, tasks }) => {
    const item: Record<string, unknown> = {};
    for (const field of fields) {
      if (field === 'id') item.id = page.id;
      else if (field === 'access_token') item.access_token = ctx.tokens.pageTokenFor(caller.record, page.id).token;
      else if (field === 'tasks') item.tasks = [...tasks];
      else if (page.fields.has(field)) item[field] = page.fields.get(field);
    }
    return item;
  });
  return { ...paged, data };
}
