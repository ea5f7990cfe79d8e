/**
 * The User node and its edges the flow uses: `/me` (Graph API "User"
 * reference: the public_profile fields id, first_name, last_name,
 * middle_name, name, name_format, picture, short_name; `email` with the
 * `email` permission and `link` with `user_link`, each silently left out
 * without it), `/me/permissions`
 * (https://developers.facebook.com/docs/graph-api/reference/user/permissions)
 * `/me/accounts` (https://developers.facebook.com/docs/graph-api/reference/user/accounts) and
 * `/me/businesses` (./business.ts).
 */
import { createHash } from 'node:crypto';
import { missingPermission, nonexistingField } from '../errors';
import { IMPLICIT_PERMISSION } from '../permissions';
import type { SeedUser } from '../seed';
import { grantsPage } from '../store/tokens';
import { hasScope } from './auth';
import { businessesEdge } from './business';
import { edgeLinks, type GraphCall } from './call';
import { parseFields, withId } from './fields';
import { PAGE, pageFieldValues } from './page';
import { paginate, parsePageQuery, type Paged } from './paging';
import { profilePicture } from './picture';
import { project, scalars, SCALAR, validate, type ObjectType } from './select';

const USER_SCALARS = [
  'id',
  'name',
  'first_name',
  'middle_name',
  'last_name',
  'short_name',
  'name_format',
  'email',
  'link',
];
export const USER: ObjectType = {
  name: 'User',
  fields: {
    ...Object.fromEntries(USER_SCALARS.map((name) => [name, SCALAR])),
    picture: { kind: 'data', type: scalars('ProfilePictureSource', ['height', 'is_silhouette', 'url', 'width']) },
  },
};
/** Fields a permission beyond public_profile unlocks; without it they are silently absent. */
const NEEDS: Readonly<Record<string, string>> = { email: 'email', link: 'user_link' };

/**
 * An item of `/me/accounts` is a Page node: any Page field may be asked for by field expansion in the same
 * call (`picture{url}`, `followers_count`), plus the person's `tasks` on it and its `category_list`
 * (User Accounts reference).
 */
const ACCOUNT_DEFAULTS = ['id', 'name', 'category', 'category_list', 'access_token', 'tasks'];
const ACCOUNT: ObjectType = {
  name: 'Page',
  fields: {
    ...PAGE.fields,
    tasks: SCALAR,
    category_list: { kind: 'object', type: scalars('PageCategory', ['id', 'name']) },
  },
};

export function userNode(call: GraphCall, user: SeedUser): Record<string, unknown> {
  const requests = withId(parseFields(call.params.fields, ['id', 'name']));
  validate(requests, USER);
  const { record } = call.caller;
  const allowed = requests.filter((r) => NEEDS[r.name] === undefined || hasScope(record, NEEDS[r.name] ?? ''));
  const picture = allowed.find((r) => r.name === 'picture');
  const value: Record<string, unknown> = {
    ...user,
    short_name: user.first_name,
    name_format: '{first} {last}',
    // The provider hands apps an app-scoped profile link, not the person's vanity URL.
    link: `https://www.facebook.com/app_scoped_user_id/${user.id}/`,
    ...(picture !== undefined ? { picture: { data: profilePicture(call.ctx, undefined, picture.type) } } : {}),
  };
  return project(call, value, allowed, USER);
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
  // Only the Pages the person chose at the dialog's page step (docs/specification.md#page-selection).
  const managed = ctx.data.managed(user.id).filter((m) => grantsPage(caller.record, m.page.id));
  const paged = paginate(
    managed,
    (m) => m.page.id,
    parsePageQuery(call.params, ctx.accountsPageSize, ctx.accountsPageSize),
    `accounts.${user.id}`,
    edgeLinks(call, user.id, 'accounts'),
  );
  const data = paged.data.map(({ page, tasks }) => {
    const value: Record<string, unknown> = {
      ...pageFieldValues(ctx, page, requests),
      tasks: [...tasks],
      category_list: categoryList(page.fields.get('category')),
    };
    // The page token is minted only when asked for.
    if (requests.some((r) => r.name === 'access_token'))
      value.access_token = ctx.tokens.pageTokenFor(caller.record, page.id).token;
    return project(call, value, requests, ACCOUNT);
  });
  return { ...paged, data };
}

/**
 * The Page's categories as `[{id, name}]`. The seed names one category per
 * Page; its id is derived from the name (stable, numeric like the
 * provider's), since the provider's own category ids are not published.
 */
function categoryList(category: unknown): { id: string; name: string }[] {
  if (typeof category !== 'string') return [];
  const hash = BigInt(`0x${createHash('sha256').update(category).digest('hex').slice(0, 16)}`);
  return [{ id: String(100_000_000_000_000n + (hash % 900_000_000_000_000n)), name: category }];
}
