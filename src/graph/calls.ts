import type { GraphRequest } from './transport';

/** What a provider call was for, in a bounded set of words (metric labels, span names). */
export type CallKind =
  | 'code_exchange'
  | 'long_lived_exchange'
  | 'me'
  | 'permissions'
  | 'accounts'
  | 'businesses'
  | 'portfolio_pages'
  | 'page_token'
  | 'page_details'
  | 'feed'
  | 'post'
  | 'comments'
  | 'subscribe'
  | 'page_insights'
  | 'post_insights'
  | 'debug_token'
  | 'comment_write'
  | 'other';

/** How an attempt ended: answered and valid, the provider's error, or no usable answer (by cause). */
export type CallOutcome =
  'ok' | 'graph_error' | 'refused' | 'held_back' | 'timeout' | 'unreachable' | 'bad_response' | 'http_error' | 'failed';

/** One attempt of one provider call, as the transport tells its watchers; nothing in it names a person or a token. */
export interface ProviderCall {
  kind: CallKind;
  method: 'GET' | 'POST' | 'DELETE';
  /** The path with its ids replaced: `/v26.0/{id}/feed`. */
  path: string;
  /** The provider's HTTP status, when it answered. */
  status: number | undefined;
  outcome: CallOutcome;
  graphCode: number | undefined;
  fbtraceId: string | undefined;
  /** Epoch ms. */
  startedAt: number;
  seconds: number;
}

/**
 * A call path with its ids generalised (`/v26.0/123/feed` → `/v26.0/{id}/feed`, a post's `123_456` too):
 * bounded, and names no page or post.
 */
export function callTemplate(path: string): string {
  const template = path.replace(/\/\d+(?:_\d+)?(?=\/|$)/g, '/{id}');
  return /^[\w/{}.-]{1,100}$/.test(template) ? template : '/other';
}

/** The call's kind, from its method, path and the fields it asks for (docs/provider-interface.md#calls-at-a-glance). */
export function callKind(req: Pick<GraphRequest, 'method' | 'path' | 'query' | 'form'>): CallKind {
  const path = req.path.replace(/^\/v\d+\.\d+/, '');
  const fields = req.query?.fields ?? req.form?.fields;
  if (path === '/oauth/access_token')
    return req.form?.grant_type === 'fb_exchange_token' ? 'long_lived_exchange' : 'code_exchange';
  if (path === '/me') return 'me';
  if (path === '/me/permissions') return 'permissions';
  if (path === '/me/accounts') return 'accounts';
  if (path === '/me/businesses') return 'businesses';
  if (/^\/\d+\/(?:owned|client)_pages$/.test(path)) return 'portfolio_pages';
  if (path === '/debug_token') return 'debug_token';
  if (/^\/\d+\/feed$/.test(path)) return 'feed';
  if (/^\/\d+\/subscribed_apps$/.test(path)) return 'subscribe';
  if (/^\/\d+\/insights$/.test(path)) return 'page_insights';
  if (/^\/\d+_\d+\/insights$/.test(path)) return 'post_insights';
  // A batch (`POST /vX.Y/` with `batch`) is the post page's: the post and its reactions by kind.
  // A write on a comment or a post's comments: a reply, a like, hiding, deleting (docs/provider-interface.md#comment-actions).
  if (req.method !== 'GET' && /^\/\d+_\d+(?:\/(?:comments|likes))?$/.test(path) && req.form?.batch === undefined)
    return 'comment_write';
  if (/^\/\d+_\d+$/.test(path) || (path === '/' && req.form?.batch !== undefined)) return 'post';
  if (/^\/\d+(?:_\d+)?\/comments$/.test(path)) return 'comments';
  if (/^\/\d+$/.test(path)) return fields === 'access_token' ? 'page_token' : 'page_details';
  return 'other';
}
