/**
 * Several Graph calls in one HTTP request, as the "Batch Requests" guide describes
 * (https://developers.facebook.com/docs/graph-api/batch-requests): `POST /` (or `/vX.Y/`) with `batch`, a JSON
 * array of at most 50 operations `{method, relative_url, body?}`; `relative_url` is relative to the version of
 * the batch's own path. The answer is a 200 with one entry per operation, in order: `{code, headers, body}`,
 * `body` the operation's answer as a JSON string, errors included (a failed operation does not fail the batch).
 * Each operation is a call of its own for rate limiting ("each call within the batch is counted separately").
 * An operation takes the batch's token (header or `access_token`) and `appsecret_proof` unless it names its
 * own. The same sub-call runs each id of a multi-ID read (`?ids=a,b`) for an app that may still use those.
 */
import type { Request, Response } from 'express';
import { badParam, errorBody, GraphError } from '../errors';
import { traceIdOf } from '../respond';

/** The guide's limit. */
export const MAX_BATCH = 50;

/** One operation's answer, as the batch writes it. */
export interface OperationAnswer {
  code: number;
  headers?: { name: string; value: string }[];
  body: string;
}

/** What runs one call: the dispatcher itself, given a request and response of its own. */
export type RunCall = (req: Request, res: Response, path: string) => Promise<void> | undefined;

interface Operation {
  method: string;
  url: string;
  body: string | undefined;
}

/** The `batch` parameter read as operations, or 100 in the provider's wording where it has one. */
export function parseBatch(raw: string): Operation[] {
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    throw badParam('The parameter batch must be a JSON array');
  }
  if (!Array.isArray(list)) throw badParam('The parameter batch must be a JSON array');
  if (list.length === 0) throw badParam('The parameter batch must not be empty');
  // Wording as client libraries report it; unconfirmed in the guide (docs/specification.md#batch-requests).
  if (list.length > MAX_BATCH) throw badParam(`Too many requests in batch message. Maximum batch size is ${MAX_BATCH}`);
  return list.map((item: unknown, i) => {
    const op = (item ?? {}) as { method?: unknown; relative_url?: unknown; body?: unknown };
    if (typeof op.relative_url !== 'string' || op.relative_url === '')
      throw badParam(`Missing relative_url in batch operation ${i}`);
    const method = typeof op.method === 'string' ? op.method.toUpperCase() : 'GET';
    if (!['GET', 'POST', 'DELETE'].includes(method)) throw badParam(`Unsupported method ${method.slice(0, 10)}`);
    return {
      method,
      url: op.relative_url.replace(/^\/+/, ''),
      body: typeof op.body === 'string' ? op.body : undefined,
    };
  });
}

/**
 * Runs `op` as a call of its own: `prefix` (`/vX.Y` or empty) before its relative URL, the outer request's
 * credentials (from its `params`) where it names none. Never throws: an error is the operation's answer.
 */
export async function runOperation(
  outer: Request,
  params: Readonly<Record<string, string>>,
  prefix: string,
  op: Operation,
  run: RunCall,
  includeHeaders: boolean,
  traceId: string,
): Promise<{ answer: OperationAnswer; usage: [string, string][] }> {
  const [pathPart, search = ''] = op.url.split('?', 2) as [string, string | undefined];
  const query = Object.fromEntries(new URLSearchParams(search)) as Record<string, string>;
  const form =
    op.body === undefined ? undefined : (Object.fromEntries(new URLSearchParams(op.body)) as Record<string, string>);
  const own = query.access_token !== undefined || form?.access_token !== undefined;
  if (!own && params.access_token !== undefined) query.access_token = params.access_token;
  if (!own && params.appsecret_proof !== undefined && query.appsecret_proof === undefined)
    query.appsecret_proof = params.appsecret_proof;
  const path = `${prefix}/${pathPart}`;
  const req = subRequest(outer, op.method, path, query, form, own);
  const res = new SubResponse(traceId);
  try {
    await run(req, res as unknown as Response, path);
  } catch (err) {
    const graph = err instanceof GraphError ? err : new GraphError({ code: 1, message: 'An unknown error occurred' });
    res.status(graph.status).set('Content-Type', 'text/javascript; charset=UTF-8');
    res.send(Buffer.from(JSON.stringify(errorBody(graph, res.locals.traceId))));
  }
  return { answer: res.answer(includeHeaders), usage: res.usage() };
}

function subRequest(
  outer: Request,
  method: string,
  path: string,
  query: Record<string, string>,
  form: Record<string, string> | undefined,
  ownToken: boolean,
): Request {
  const headers: Record<string, string> = {};
  const authorization = outer.get('authorization');
  if (authorization !== undefined && !ownToken) headers.authorization = authorization;
  if (form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = '1';
  }
  // The outer request's prototype chain (get, is) over the operation's own method, path, query and body.
  const req = Object.create(outer) as Request;
  Object.defineProperties(req, {
    method: { value: method },
    url: { value: path },
    originalUrl: { value: path },
    path: { value: path },
    query: { value: query },
    body: { value: form ?? {} },
    headers: { value: headers },
  });
  return req;
}

/** Collects what the dispatcher writes for one operation. */
class SubResponse {
  readonly locals: { traceId: string };
  headersSent = false;
  private code = 200;
  private readonly headers = new Map<string, string>();
  private body = '';

  constructor(traceId: string) {
    this.locals = { traceId };
  }

  status(code: number): this {
    this.code = code;
    return this;
  }

  set(name: string | Record<string, string>, value?: string): this {
    if (typeof name === 'string') this.headers.set(name, String(value));
    else for (const [k, v] of Object.entries(name)) this.headers.set(k, v);
    return this;
  }

  get(name: string): string | undefined {
    return this.headers.get(name);
  }

  send(body: Buffer | string): this {
    this.body = body.toString();
    this.headersSent = true;
    return this;
  }

  answer(includeHeaders: boolean): OperationAnswer {
    const headers = [...this.headers].map(([name, value]) => ({ name, value }));
    return { code: this.code, ...(includeHeaders ? { headers } : {}), body: this.body };
  }

  /** The usage headers an operation got, for the batch's own answer. */
  usage(): [string, string][] {
    return [...this.headers].filter(([name]) => /^x-(app|business-use-case)-usage$/i.test(name));
  }
}

/**
 * The whole batch: operations in order, each a call of its own. The batch's answer carries the usage headers
 * of its last operation that had them (each operation was counted).
 */
export async function runBatch(
  outer: Request,
  outerRes: Response,
  params: Readonly<Record<string, string>>,
  version: string | undefined,
  run: RunCall,
): Promise<OperationAnswer[]> {
  const ops = parseBatch(params.batch ?? '');
  const includeHeaders = params.include_headers !== 'false';
  const prefix = version === undefined ? '' : `/${version}`;
  const answers: OperationAnswer[] = [];
  for (const op of ops) {
    const { answer, usage } = await runOperation(outer, params, prefix, op, run, includeHeaders, traceIdOf(outerRes));
    answers.push(answer);
    for (const [name, value] of usage) outerRes.set(name, value);
  }
  return answers;
}
