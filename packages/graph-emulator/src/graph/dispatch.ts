/**
 * Routes a Graph request: `/[vX.Y/]<node>[/<edge>]`, plus the token endpoint
 * at `/[vX.Y/]oauth/access_token` and batch requests at `POST /[vX.Y/]` (./batch.ts). The legacy features
 * (./legacy.ts) are refused to a new app first; an older app keeps them: any path as a POST with `method=get`
 * in the form (the provider's method override, docs/specification.md#sending-credentials), multi-ID
 * reads (`/?ids=a,b`), field aliases and JSONP `callback`.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Context } from '../context';
import { badParam, GraphError, unsupportedGet } from '../errors';
import { logEntryOf } from '../log';
import { collectParams, formBody, uploadOf } from '../params';
import type { SeedBusiness, SeedComment, SeedPost, SeedUser } from '../seed';
import { findComment, findPost, type PageState } from '../store/data';
import { tokenEndpoint } from '../token/endpoint';
import { appTokenRequired, isAppToken } from '../token/app-token';
import { appCall } from './app-calls';
import { authenticate, findToken, type Caller } from './auth';
import { businessEdge, businessNode } from './business';
import { commentNode, commentsEdge } from './comments';
import { commentWrite } from './comment-writes';
import { pageWrite, postWrite } from './post-writes';
import { debugToken } from './debug-token';
import type { GraphCall } from './call';
import { pageInsights, postInsights } from './insights';
import { pageEdge, pageNode, requirePageAccess } from './page';
import { pictureEdge } from './picture';
import { postNode } from './post-node';
import { reactionsEdge } from './post';
import { subscribedApps } from './subscribed-apps';
import { sendJson, traceIdOf, VERSION_RE } from '../respond';
import { MAX_BATCH, runBatch, runOperation } from './batch';
import { clientOfToken, legacyFeaturesOf, refuseLegacy } from './legacy';
import { meter } from './usage';
import { userEdge, userNode } from './user';

type Node =
  | { kind: 'user'; user: SeedUser }
  | { kind: 'business'; business: SeedBusiness }
  | { kind: 'page'; page: PageState }
  | { kind: 'post'; page: PageState; post: SeedPost }
  | { kind: 'comment'; page: PageState; post: SeedPost; comment: SeedComment; parent?: SeedComment };

export function graphHandler(ctx: Context) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // What the emulator's clock says is due is published before anyone reads (docs/reference.md#publishing).
    ctx.activity.publishDue();
    dispatch(ctx, req, res, req.path)?.catch(next);
  };
}

/** One call at `path`: the handler's own, or one operation of a batch or a multi-ID read. */
function dispatch(ctx: Context, req: Request, res: Response, path: string): Promise<void> | undefined {
  const segments = pathSegments(path);
  const version = segments[0] !== undefined && VERSION_RE.test(segments[0]) ? segments.shift() : undefined;
  if (segments.length === 2 && segments[0] === 'oauth' && segments[1] === 'access_token') {
    return tokenEndpoint(ctx, req, res);
  }
  return graphCall(ctx, req, res, segments, version);
}

function graphCall(
  ctx: Context,
  req: Request,
  res: Response,
  segments: string[],
  version: string | undefined,
): Promise<void> | undefined {
  const form = formBody(req);
  const { values: params, repeated } = collectParams(req.query, form);
  if (repeated[0] !== undefined) throw badParam(`Param ${repeated[0]} must be a single value`);
  const formHasToken = typeof (form as Record<string, unknown> | undefined)?.access_token === 'string';
  const presented = findToken(req, params, formHasToken);
  const clientId = presented === undefined ? undefined : clientOfToken(ctx, presented.token);
  refuseLegacy(ctx, clientId, legacyFeaturesOf(req.method, params, segments));
  if (params.callback !== undefined) jsonpOf(res, params.callback);
  if (segments.length === 0 && req.method === 'POST' && params.batch !== undefined) {
    const run = (r: Request, s: Response, path: string) => {
      // `match` may name an operation's query too (`type=LOVE`): its operations share one path.
      const query = new URLSearchParams(r.query as Record<string, string>).toString();
      const write = r.method === 'POST' || r.method === 'DELETE';
      const scripted = ctx.faults.takeForOperation(`${path}?${query}`, write);
      if (scripted !== undefined) throw scripted;
      return dispatch(ctx, r, s, path);
    };
    return runBatch(req, res, params, version, run).then((answers) => sendJson(res, 200, answers));
  }
  if (segments.length === 0 && params.ids !== undefined) return multiId(ctx, req, res, params, version);
  if (segments.length === 1 && segments[0] === 'debug_token') {
    debugToken(ctx, req, res, params);
    return;
  }
  if (segments.length === 2 && segments[1] === 'picture' && isTokenless(req, params)) {
    // A published Page's picture is public: no token needed (one that is sent is checked as usual).
    const page = ctx.data.page(segments[0] ?? '');
    if (page === undefined) throw unsupportedGet(segments[0] ?? '');
    pictureEdge(ctx, params, page, res);
    return;
  }
  const method = effectiveMethod(req.method, params.method);
  if (presented !== undefined && isAppToken(presented.token)) {
    const entry = logEntryOf(res);
    if (entry !== undefined) Object.assign(entry, { tokenVia: presented.via, tokenKind: 'app' });
    const call = { ctx, method, params, version: version ?? ctx.appVersion };
    return appCall(call, presented.token, segments).then((body) => sendJson(res, 200, body));
  }
  const caller = authenticate(ctx, req, params, formHasToken, logEntryOf(res));
  // A user token's call about a Page (its token, its fields) meets the page-level limit (code 32).
  meter(ctx.usage, caller.record, isPageId(ctx, segments[0]), res);

  const [nodeId, edge, ...rest] = segments;
  // `/{page-id}/insights/{metric-name}`: one metric named by the path, as the Page Insights guide writes it.
  const metricInPath = edge === 'insights' && rest.length === 1 && params.metric === undefined ? rest[0] : undefined;
  if (metricInPath !== undefined) params.metric = metricInPath;
  if (nodeId === undefined) {
    throw new GraphError({
      code: 100,
      type: 'GraphMethodException',
      message: `Unsupported ${method} request. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    });
  }
  if (rest.length > 0 && metricInPath === undefined)
    throw new GraphError({ code: 2500, message: `Unknown path components: /${segments.slice(1).join('/')}` });
  if (edge === 'subscriptions' && ctx.clients.has(nodeId)) throw appTokenRequired();
  // The one edge that takes writes (and deletes): webhook subscriptions, README#webhooks.
  const target = edge === 'subscribed_apps' ? resolveNode(ctx, caller, nodeId) : undefined;
  if (target?.kind === 'page') {
    const call: GraphCall = { ctx, req, caller, params, version };
    return subscribedApps(call, target.page, method).then((body) => sendJson(res, 200, body));
  }
  const call: GraphCall = { ctx, req, caller, params, version };
  if (method === 'post' || method === 'delete') {
    sendJson(res, 200, write(call, nodeId, edge, method));
    return undefined;
  }
  // Another method on a node: the real API answers an unsupported one with the same 100/33.
  if (method !== 'get') throw unsupportedGet(nodeId, method);

  const node = resolveNode(ctx, caller, nodeId);
  if (node.kind === 'page' && edge === 'picture') {
    pictureEdge(ctx, params, node.page, res);
    return undefined;
  }
  sendJson(res, 200, answer(call, node, edge));
  return undefined;
}

/**
 * The writes the emulator offers: a Page's publishing (./post-writes.ts) and comment moderation
 * (./comment-writes.ts). Any other write, or one on an object the token cannot see, is the provider's 100/33
 * naming the method.
 */
function write(call: GraphCall, nodeId: string, edge: string | undefined, method: 'post' | 'delete'): unknown {
  let node: Node;
  try {
    node = resolveNode(call.ctx, call.caller, nodeId);
  } catch (err) {
    if (err instanceof GraphError) throw unsupportedGet(nodeId, method);
    throw err;
  }
  if (node.kind === 'page') return pageWrite(call, node.page, edge, method, uploadOf(call.req));
  if (node.kind === 'post' && edge === undefined) return postWrite(call, node.page, node.post, method);
  if (node.kind === 'post' || node.kind === 'comment') return commentWrite(call, node, edge, method);
  throw unsupportedGet(nodeId, method);
}

function answer(call: GraphCall, node: Node, edge: string | undefined): unknown {
  if (node.kind === 'user') return edge === undefined ? userNode(call, node.user) : userEdge(call, node.user, edge);
  if (node.kind === 'business')
    return edge === undefined ? businessNode(call, node.business) : businessEdge(call, node.business, edge);
  // Of a post's and a comment's edges only `comments` (and a post's `insights` and `reactions`) are emulated on its own; the rest are read through field expansion.
  if (node.kind === 'post' || node.kind === 'comment') {
    const id = node.kind === 'post' ? node.post.id : node.comment.id;
    if (node.kind === 'post' && edge === 'insights') return postInsights(call, node.page, node.post);
    if (node.kind === 'post' && edge === 'reactions') {
      requirePageAccess(call, node.page);
      return reactionsEdge(call, node.post);
    }
    if (edge === 'comments') {
      requirePageAccess(call, node.page);
      return commentsEdge(call, node.page, node.post, id, node.kind === 'comment' ? node.comment : undefined);
    }
    if (edge !== undefined) throw unsupportedGet(`${id}/${edge}`);
    if (node.kind === 'comment') {
      requirePageAccess(call, node.page);
      return commentNode(call, node.page, node.post, node.comment, node.parent);
    }
    return postNode(call, node.page, node.post);
  }
  if (edge === 'insights') return pageInsights(call, node.page);
  return edge === undefined ? pageNode(call, node.page) : pageEdge(call, node.page, edge);
}

/** `me` is the token's subject: the user for a user token, the page for a page token. */
function resolveNode(ctx: Context, caller: Caller, nodeId: string): Node {
  const { record } = caller;
  const id = nodeId === 'me' ? (record.kind === 'page' ? record.pageId : record.userId) : nodeId;
  if (id !== undefined && /^\d+$/.test(id)) {
    const page = ctx.data.page(id);
    if (page !== undefined) return { kind: 'page', page };
    const user = record.kind === 'user' && id === record.userId ? ctx.data.user(id) : undefined;
    if (user !== undefined) return { kind: 'user', user };
    // A portfolio is visible only to a user token of someone who belongs to it.
    const business = record.kind === 'user' ? ctx.data.memberBusiness(record.userId, id) : undefined;
    if (business !== undefined) return { kind: 'business', business };
  }
  // Post ids are `<page id>_<post number>`.
  const postId = id === undefined ? undefined : /^(\d+)_\d+$/.exec(id);
  const page = postId?.[1] === undefined ? undefined : ctx.data.page(postId[1]);
  const post = page === undefined || id === undefined ? undefined : findPost(page, id);
  if (page !== undefined && post !== undefined) return { kind: 'post', page, post };
  // Comment ids are `<post number>_<comment number>`: the page is the token's.
  const tokenPage = record.kind === 'page' && record.pageId !== undefined ? ctx.data.page(record.pageId) : undefined;
  const found = id !== undefined && tokenPage !== undefined ? findComment(tokenPage, id) : undefined;
  if (found !== undefined && tokenPage !== undefined) return { kind: 'comment', page: tokenPage, ...found };
  throw unsupportedGet(nodeId);
}

/**
 * `GET /?ids=a,b` (an older app's multi-ID read): each id read as its own call with the other parameters, the
 * answers keyed by id; the first that fails is the whole call's error, as the provider answers it.
 */
async function multiId(
  ctx: Context,
  req: Request,
  res: Response,
  params: Record<string, string>,
  version: string | undefined,
): Promise<void> {
  const ids = (params.ids ?? '').split(',').filter(Boolean);
  if (ids.length === 0 || ids.length > MAX_BATCH) throw badParam('ids must list from 1 to 50 ids');
  const rest = Object.fromEntries(Object.entries(params).filter(([name]) => name !== 'ids' && name !== 'callback'));
  const query = new URLSearchParams(rest).toString();
  const prefix = version === undefined ? '' : `/${version}`;
  const out: Record<string, unknown> = {};
  for (const id of ids) {
    const op = { method: 'GET', url: `${encodeURIComponent(id)}?${query}`, body: undefined };
    const run = (r: Request, s: Response, path: string) => dispatch(ctx, r, s, path);
    const { answer } = await runOperation(req, {}, prefix, op, run, false, traceIdOf(res));
    const body: unknown = JSON.parse(answer.body);
    if (answer.code !== 200) return sendJson(res, answer.code, body);
    out[id] = body;
  }
  sendJson(res, 200, out);
}

/** An older app's JSONP `callback`: a name of letters, digits, `_`, `$` and `.` only. */
function jsonpOf(res: Response, name: string): void {
  if (!/^[\w$.]{1,64}$/.test(name)) throw badParam('callback must be a plain function name');
  (res.locals as { jsonp?: string }).jsonp = name;
}

function isPageId(ctx: Context, nodeId: string | undefined): boolean {
  return nodeId !== undefined && ctx.data.page(nodeId.split('_')[0] ?? '') !== undefined;
}

function isTokenless(req: Request, params: Record<string, string>): boolean {
  return req.get('authorization') === undefined && (params.access_token ?? '') === '';
}

function effectiveMethod(httpMethod: string, override: string | undefined): string {
  if (httpMethod === 'GET' || httpMethod === 'HEAD') return 'get';
  if (httpMethod === 'POST') return override === undefined ? 'post' : override.toLowerCase();
  return httpMethod.toLowerCase();
}

function pathSegments(path: string): string[] {
  return path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw unsupportedGet(s);
      }
    });
}
