/**
 * `GET /<post_id>` (Post reference): the same field expressions as the feed.
 * "A page access token can read all posts posted to or posted by that Page",
 * with the same permission the feed needs; a user token gets the page-token
 * error the Page node gives.
 */
import type { SeedPost } from '../seed';
import type { PageState } from '../store/data';
import type { GraphCall } from './call';
import { parseFields, withId } from './fields';
import { requirePageAccess } from './page';
import { POST, POST_DEFAULTS, postValue } from './post';
import { project, validate } from './select';

export function postNode(call: GraphCall, page: PageState, post: SeedPost): Record<string, unknown> {
  const fields = withId(parseFields(call.params.fields, POST_DEFAULTS));
  validate(fields, POST);
  requirePageAccess(call, page);
  return project(call, postValue(call, page, post), fields, POST);
}
