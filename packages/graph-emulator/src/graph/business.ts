/**
 * Business portfolios as the person reaches them: `/me/businesses`
 * (https://developers.facebook.com/docs/graph-api/reference/user/businesses/), the Business node, and its
 * `owned_pages` (https://developers.facebook.com/docs/graph-api/reference/business/owned_pages/) and
 * `client_pages` edges. Every one needs `business_management`: without it the provider answers its
 * permission error (code 200, "Requires business_management permission to manage the object", as client
 * libraries report it). Pages on these edges are plain Page nodes: no `tasks`, no `access_token`.
 */
import { GraphError, nonexistingField } from '../errors';
import type { SeedBusiness, SeedUser } from '../seed';
import { hasScope } from './auth';
import { edgeLinks, type GraphCall } from './call';
import { namesOf, parseFields, withId } from './fields';
import { paginate, parsePageQuery, type Paged } from './paging';
import { scalars, validate } from './select';

export const BUSINESS_PERMISSION = 'business_management';

const BUSINESS = scalars('Business', ['id', 'name']);
const PORTFOLIO_PAGE = scalars('Page', ['id', 'name', 'category', 'link', 'username']);

const businessPermissionRequired = (): GraphError =>
  new GraphError({
    code: 200,
    message: `(#200) Requires ${BUSINESS_PERMISSION} permission to manage the object`,
  });

function requireBusinessPermission(call: GraphCall): void {
  if (!hasScope(call.caller.record, BUSINESS_PERMISSION)) throw businessPermissionRequired();
}

/** `GET /me/businesses`: the portfolios the person belongs to, paged like every edge. */
export function businessesEdge(call: GraphCall, user: SeedUser): Paged<Record<string, unknown>> {
  requireBusinessPermission(call);
  const requests = withId(parseFields(call.params.fields, ['id', 'name']));
  validate(requests, BUSINESS);
  const fields = namesOf(requests);
  const paged = paginate(
    call.ctx.data.businessesOf(user.id),
    (b) => b.id,
    parsePageQuery(call.params, call.ctx.accountsPageSize, call.ctx.accountsPageSize),
    `businesses.${user.id}`,
    edgeLinks(call, user.id, 'businesses'),
  );
  return { ...paged, data: paged.data.map((b) => pick({ id: b.id, name: b.name }, fields)) };
}

/** `GET /<business_id>`: its id and name. */
export function businessNode(call: GraphCall, business: SeedBusiness): Record<string, unknown> {
  requireBusinessPermission(call);
  const requests = withId(parseFields(call.params.fields, ['id', 'name']));
  validate(requests, BUSINESS);
  return pick({ id: business.id, name: business.name }, namesOf(requests));
}

/** `GET /<business_id>/owned_pages` and `/client_pages`, at most `accountsPageSize` a call like `/me/accounts`. */
export function businessEdge(call: GraphCall, business: SeedBusiness, edge: string): Paged<Record<string, unknown>> {
  if (edge !== 'owned_pages' && edge !== 'client_pages') throw nonexistingField(edge, 'Business');
  requireBusinessPermission(call);
  const requests = withId(parseFields(call.params.fields, ['id', 'name']));
  validate(requests, PORTFOLIO_PAGE);
  const fields = namesOf(requests);
  const { ctx } = call;
  const pages = business[edge].flatMap((id) => ctx.data.page(id) ?? []);
  const paged = paginate(
    pages,
    (p) => p.id,
    parsePageQuery(call.params, ctx.accountsPageSize, ctx.accountsPageSize),
    `${edge}.${business.id}`,
    edgeLinks(call, business.id, edge),
  );
  return {
    ...paged,
    data: paged.data.map((page) => pick({ ...Object.fromEntries(page.fields), id: page.id }, fields)),
  };
}

function pick(value: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (value[field] !== undefined) out[field] = value[field];
  return out;
}
