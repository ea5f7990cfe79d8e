/**
 * Every HTTP control under `/__emulator`, as data: method, path, what its body or query must be (the zod
 * schemas the in-process controls check too) and its answer's status. `http.ts` mounts exactly these, parsing
 * each body with its schema, and `openapi.ts` describes exactly these, so the served routes and the shipped
 * OpenAPI document (docs/control-api.openapi.json) cannot drift apart. In depth: docs/reference.md#test-controls-__emulator.
 */
import type { z } from 'zod';
import {
  editPostSchema,
  newCommentSchema,
  newPostSchema,
  reactionsSchema,
  redeliverSchema,
  removePostSchema,
  webhookClientSchema,
  webhookSchema,
} from './activity';
import {
  appCreatedSchema,
  callFilterSchema,
  clockSchema,
  emptyFeedPagesSchema,
  failSchema,
  issueTokenSchema,
  latencySchema,
  pageFieldsSchema,
  putSeedSchema,
  rateLimitSchema,
  refuseMetricSchema,
  removeAppSchema,
  removedFieldsSchema,
  revokeSchema,
  roleSchema,
  tokenFilterSchema,
} from './schemas';

export interface ControlRoute {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Below `/__emulator`, Express style (`/pages/:id`). */
  path: string;
  summary: string;
  /** The JSON body's shape; a route without one ignores its body. */
  body?: z.ZodType;
  query?: z.ZodType;
  /** The answer's status when it succeeds; 204 has no body. */
  status: 200 | 201 | 204;
  /** What a successful answer holds, in words. */
  answer: string;
}

/** Keyed by operation id: the in-process control's name where one does the same. */
export const CONTROL_ROUTES = {
  issueToken: {
    method: 'post',
    path: '/tokens',
    summary: 'A user or page token without the login dialog, as if the person had approved it',
    body: issueTokenSchema,
    status: 201,
    answer: '{ access_token, expires_in } (expires_in null for a page token that does not expire)',
  },
  expireTokens: {
    method: 'post',
    path: '/tokens/expire',
    summary: 'Matching tokens expire now: Graph answers 190/463',
    body: tokenFilterSchema,
    status: 200,
    answer: '{ count }',
  },
  revokeTokens: {
    method: 'post',
    path: '/tokens/revoke',
    summary: 'Matching tokens are revoked (190/460 by default, or the reason given); name userId, pageId or token',
    body: revokeSchema,
    status: 200,
    answer: '{ count }',
  },
  setLatency: {
    method: 'post',
    path: '/latency',
    summary: 'Every Graph and token call is answered this long after it came in',
    body: latencySchema,
    status: 204,
    answer: 'nothing',
  },
  failNext: {
    method: 'post',
    path: '/fail',
    summary: 'The next n matching Graph or token requests fail as scripted (a Graph error, an HTTP answer, a reset…)',
    body: failSchema,
    status: 204,
    answer: 'nothing',
  },
  pendingFailures: {
    method: 'get',
    path: '/fail',
    summary: 'Scripted failures that have not fired yet',
    status: 200,
    answer: '{ data: [{ remaining, failure }] }',
  },
  clearFailures: {
    method: 'delete',
    path: '/fail',
    summary: 'Drops the scripted failures',
    status: 200,
    answer: '{ count }: the requests they would still have failed',
  },
  setRateLimit: {
    method: 'post',
    path: '/rate-limit',
    summary: "A call budget per window, beyond which Graph answers the provider's throttling error",
    body: rateLimitSchema,
    status: 204,
    answer: 'nothing',
  },
  clearRateLimit: {
    method: 'delete',
    path: '/rate-limit',
    summary: 'Back to a budget too large to reach',
    status: 204,
    answer: 'nothing',
  },
  setEmptyFeedPages: {
    method: 'put',
    path: '/feed/empty-pages',
    summary: 'Feed positions where a page comes back empty once, with next',
    body: emptyFeedPagesSchema,
    status: 204,
    answer: 'nothing',
  },
  emptyFeedPages: {
    method: 'get',
    path: '/feed/empty-pages',
    summary: 'The feed positions that come back empty once',
    status: 200,
    answer: '{ positions }',
  },
  setPageFields: {
    method: 'post',
    path: '/pages/:id',
    summary: "Sets a Page's fields (null unsets one); all are checked before any is set",
    body: pageFieldsSchema,
    status: 204,
    answer: 'nothing',
  },
  setRole: {
    method: 'post',
    path: '/roles',
    summary: "A person's tasks on a Page from now on (null: no role)",
    body: roleSchema,
    status: 204,
    answer: 'nothing',
  },
  refuseMetric: {
    method: 'post',
    path: '/insights/refuse',
    summary: 'The provider refuses this insights metric from now on, as one it retired',
    body: refuseMetricSchema,
    status: 204,
    answer: 'nothing',
  },
  removedFields: {
    method: 'get',
    path: '/removed-fields',
    summary: 'The Page fields refused now',
    status: 200,
    answer: '{ fields }',
  },
  setRemovedFields: {
    method: 'put',
    path: '/removed-fields',
    summary: 'Page fields refused from now on, on every version, as the provider refuses a removed field',
    body: removedFieldsSchema,
    status: 204,
    answer: 'nothing',
  },
  clearRemovedFields: {
    method: 'delete',
    path: '/removed-fields',
    summary: 'Every Page field served again',
    status: 204,
    answer: 'nothing',
  },
  setAppCreated: {
    method: 'put',
    path: '/app-created',
    summary: 'The day an app was created: on or after 2026-11-04 it is refused the legacy features',
    body: appCreatedSchema,
    status: 204,
    answer: 'nothing',
  },
  clock: {
    method: 'get',
    path: '/clock',
    summary: "The emulator's time now",
    status: 200,
    answer: '{ now } (ISO 8601)',
  },
  moveClock: {
    method: 'post',
    path: '/clock',
    summary: 'Time passes: the clock forward by advanceMs or to at, never back; what fell due is published now',
    body: clockSchema,
    status: 200,
    answer: '{ now, published }: the new time and the scheduled posts published',
  },
  reset: {
    method: 'post',
    path: '/reset',
    summary: "Back to the loaded seed's data, with no latency, failure, rate limit or log; tokens stay valid",
    status: 204,
    answer: 'nothing',
  },
  seed: {
    method: 'get',
    path: '/seed',
    summary: 'The loaded seed: its name, the registered clients, people and Pages (ids and counts, never a secret)',
    status: 200,
    answer: '{ name, clients, users, pages }',
  },
  loadSeed: {
    method: 'put',
    path: '/seed',
    summary: 'Loads a named seed or a whole one (a seed file, a snapshot), then resets',
    body: putSeedSchema,
    status: 204,
    answer: 'nothing',
  },
  snapshot: {
    method: 'get',
    path: '/snapshot',
    summary: 'The data as it is now, as a seed that PUT /seed restores',
    status: 200,
    answer: 'a seed (seed.schema.json)',
  },
  requestLog: {
    method: 'get',
    path: '/log',
    summary: 'Dialog, token and Graph requests, oldest first',
    status: 200,
    answer: '{ data: [LogEntry] }',
  },
  clearLog: {
    method: 'delete',
    path: '/log',
    summary: 'Empties the request log',
    status: 204,
    answer: 'nothing',
  },
  calls: {
    method: 'get',
    path: '/calls',
    summary: 'How many Graph and token-endpoint requests the log holds, filtered',
    query: callFilterSchema,
    status: 200,
    answer: '{ count }',
  },
  removeApp: {
    method: 'post',
    path: '/apps/remove',
    summary: "What the settings page's Remove does: revokes the person's tokens, sends the signed callbacks",
    body: removeAppSchema,
    status: 200,
    answer: '{ revoked, deliveries: [CallbackDelivery] }, once every callback has answered or failed',
  },
  callbackDeliveries: {
    method: 'get',
    path: '/callbacks',
    summary: 'Deauthorize and data-deletion callbacks sent so far',
    status: 200,
    answer: '{ data: [CallbackDelivery] }',
  },
  setWebhook: {
    method: 'post',
    path: '/webhooks',
    summary: "An app's webhook callback, verified first with the hub.challenge handshake",
    body: webhookSchema,
    status: 200,
    answer: '{ verified }',
  },
  removeWebhook: {
    method: 'delete',
    path: '/webhooks',
    summary: "No more deliveries to that app's webhook",
    query: webhookClientSchema,
    status: 204,
    answer: 'nothing',
  },
  webhookDeliveries: {
    method: 'get',
    path: '/webhooks/deliveries',
    summary: 'Webhook verifications and events sent, with their attempts',
    status: 200,
    answer: '{ data: [WebhookDelivery] }',
  },
  redeliverWebhook: {
    method: 'post',
    path: '/webhooks/redeliver',
    summary: 'The same event body and signature again, as after a lost answer',
    body: redeliverSchema,
    status: 204,
    answer: 'nothing',
  },
  subscriptions: {
    method: 'get',
    path: '/webhooks/subscriptions/:pageId',
    summary: "The apps subscribed to a Page's fields",
    status: 200,
    answer: '{ data: [{ clientId, fields }] }',
  },
  addPost: {
    method: 'post',
    path: '/activity/posts',
    summary: "A new post, first in the Page's feed, with its feed webhook",
    body: newPostSchema,
    status: 201,
    answer: '{ id }',
  },
  editPost: {
    method: 'post',
    path: '/activity/edit',
    summary: "A post's new message, with its feed webhook",
    body: editPostSchema,
    status: 204,
    answer: 'nothing',
  },
  removePost: {
    method: 'post',
    path: '/activity/remove',
    summary: 'A post gone from the feed, with its feed webhook',
    body: removePostSchema,
    status: 204,
    answer: 'nothing',
  },
  setReactions: {
    method: 'post',
    path: '/activity/reactions',
    summary: "A post's reaction counts, one feed change per unit of difference",
    body: reactionsSchema,
    status: 200,
    answer: '{ counts }',
  },
  addComment: {
    method: 'post',
    path: '/activity/comments',
    summary: "A visitor's (or the Page's) comment or reply, with its feed webhook",
    body: newCommentSchema,
    status: 201,
    answer: '{ id }',
  },
} as const satisfies Record<string, ControlRoute>;

export type ControlId = keyof typeof CONTROL_ROUTES;

type Parsed<R, K extends 'body' | 'query'> = R extends { [P in K]: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

/** What a control's handler is given: its body and query, parsed by the route's schemas, and its path's ids. */
export interface ControlInput<Id extends ControlId> {
  body: Parsed<(typeof CONTROL_ROUTES)[Id], 'body'>;
  query: Parsed<(typeof CONTROL_ROUTES)[Id], 'query'>;
  params: Record<string, string>;
}

/** A control's work: the answer's JSON (ignored for a 204), or a promise of it. */
export type ControlHandlers = { [Id in ControlId]: (input: ControlInput<Id>) => unknown };
