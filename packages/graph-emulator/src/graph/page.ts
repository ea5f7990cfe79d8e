/**
 * The Page node (https://developers.facebook.com/docs/graph-api/reference/page)
 * and its feed edge, with the provider's page-versus-user credential rules.
 */
import { GraphError, missingPermission, nonexistingField } from '../errors';
import type { PageState } from '../store/data';
import { PAGE_FIELDS } from '../store/data';
import { grantsPage } from '../store/tokens';
import { hasScope } from './auth';
import { BUSINESS_PERMISSION } from './business';
import type { GraphCall } from './call';
import { feedEdge, scheduledEdge } from './feed';
import { namesOf, parseFields, withId, type FieldRequest } from './fields';
import { mediaUrl } from './post';
import { pictureOf } from './picture';
import { project, SCALAR, scalars, validate, type ObjectType } from './select';

/** Fields a user token may read on a Page: the page token request, see docs/specification.md#page-token. */
const USER_TOKEN_FIELDS = ['id', 'access_token'];

const pageTokenRequired = (): GraphError =>
  new GraphError({ code: 210, message: '(#210) A page access token is required to request this resource.' });

/**
 * The real API's answer both for a token lacking the permission and for a
 * page token used on a *different* page (reading another page needs
 * "Page Public Content Access", which emulated apps never have): code 10, 403.
 */
export const engagementRequired = (): GraphError =>
  missingPermission(
    'pages_read_engagement',
    10,
    " or the 'Page Public Content Access' feature. Refer to https://developers.facebook.com/docs/apps/review/login-permissions#manage-pages" +
      ' and https://developers.facebook.com/docs/apps/review/feature#reference-PAGES_ACCESS for details.',
  );

/** Nested shapes per the Page reference: Location, Parking, CoverPhoto, ProfilePictureSource. */
const NESTED: Readonly<Record<string, ObjectType['fields'][string]>> = {
  location: {
    kind: 'object',
    type: scalars('Location', ['street', 'city', 'state', 'zip', 'country', 'latitude', 'longitude']),
  },
  parking: { kind: 'object', type: scalars('PageParking', ['lot', 'street', 'valet']) },
  cover: { kind: 'object', type: scalars('CoverPhoto', ['id', 'source', 'offset_x', 'offset_y']) },
  picture: { kind: 'data', type: scalars('ProfilePictureSource', ['height', 'is_silhouette', 'url', 'width']) },
};

export const PAGE: ObjectType = {
  name: 'Page',
  fields: Object.fromEntries(PAGE_FIELDS.map((name) => [name, NESTED[name] ?? SCALAR])),
};

export function pageNode(call: GraphCall, page: PageState): Record<string, unknown> {
  const { caller } = call;
  const fields = withId(parseFields(call.params.fields, ['id', 'name']));
  validate(fields, PAGE);
  // A field the provider removed is refused on every version, like one that never existed (README#removed-fields).
  const removed = call.ctx.removedFields.firstOf(namesOf(fields));
  if (removed !== undefined) throw nonexistingField(removed, 'Page');
  if (caller.record.kind === 'user') return pageTokenRequest(call, page, namesOf(fields));
  requirePageAccess(call, page);
  // Unset fields are omitted, never null (docs/specification.md#page-fields).
  return project(call, pageValue(call, page, fields), fields, PAGE);
}

function pageValue(call: GraphCall, page: PageState, fields: readonly FieldRequest[]): Record<string, unknown> {
  return { ...pageFieldValues(call.ctx, page, fields), access_token: call.caller.token };
}

/** A Page's field values as answered, wherever a Page is read (its node, `/me/accounts`): pictures as CDN URLs. */
export function pageFieldValues(
  ctx: GraphCall['ctx'],
  page: PageState,
  fields: readonly FieldRequest[],
): Record<string, unknown> {
  const value: Record<string, unknown> = Object.fromEntries(page.fields);
  value.id = page.id;
  const picture = fields.find((f) => f.name === 'picture');
  if (picture !== undefined) value.picture = { data: pictureOf(ctx, page, picture.type) };
  const cover = page.fields.get('cover') as { source: string } | undefined;
  if (cover !== undefined) value.cover = { ...cover, source: mediaUrl(ctx, cover.source) };
  return value;
}

/**
 * `GET /<page_id>?fields=access_token` with a user token. When the user has no
 * role on the page the real API answers 200 with just the id (the token field
 * is silently left out), so the emulator does the same; anything beyond
 * id/access_token needs a page token (210).
 */
function pageTokenRequest(call: GraphCall, page: PageState, fields: string[]): Record<string, unknown> {
  const { ctx, caller } = call;
  if (!fields.every((f) => USER_TOKEN_FIELDS.includes(f))) throw pageTokenRequired();
  if (!hasScope(caller.record, 'pages_show_list')) throw missingPermission('pages_show_list', 200);
  const out: Record<string, unknown> = {};
  // A Page the person manages but did not choose at the dialog is answered like one they do not manage.
  const direct = ctx.data.role(caller.record.userId, page.id) !== undefined && grantsPage(caller.record, page.id);
  // A role through a business portfolio gives the token only with business_management granted.
  const viaPortfolio =
    !direct &&
    hasScope(caller.record, BUSINESS_PERMISSION) &&
    ctx.data.portfolioTasks(caller.record.userId, page.id) !== undefined;
  if (fields.includes('access_token') && (direct || viaPortfolio)) {
    out.access_token = ctx.tokens.pageTokenFor(caller.record, page.id, viaPortfolio).token;
  }
  out.id = page.id;
  return out;
}

export function requirePageAccess(call: GraphCall, page: PageState): void {
  const { record } = call.caller;
  if (record.kind !== 'page') throw pageTokenRequired();
  if (record.pageId !== page.id || !hasScope(record, 'pages_read_engagement') || !grantsPage(record, page.id)) {
    throw engagementRequired();
  }
}

export function pageEdge(call: GraphCall, page: PageState, edge: string): unknown {
  // The Page Scheduled Posts reference: a page token, the posts waiting, soonest first.
  if (edge === 'scheduled_posts') {
    requirePageAccess(call, page);
    return scheduledEdge(call, page);
  }
  // `posts` lists the page's own posts; in the emulator every feed post is the page's.
  if (edge !== 'feed' && edge !== 'posts') throw nonexistingField(edge, 'Page');
  // The Page's own posts need only pages_read_engagement with the page token; pages_read_user_content
  // covers visitor posts and comments, which the seed does not hold (Page Feed reference).
  requirePageAccess(call, page);
  return feedEdge(call, page, edge);
}
