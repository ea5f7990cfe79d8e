/**
 * How Graph and token-endpoint answers are written: the provider's JSON
 * content type, no-cache headers, and its tracing headers. Beside
 * `errors.ts` rather than in `graph/` or `token/`, because both write answers
 * this way and `graph/` routes to the token endpoint.
 */
import type { NextFunction, Request, Response } from 'express';
import { errorBody, GraphError, newTraceId, wwwAuthenticate } from './errors';
import { answeringVersion } from './versions';

/** The app's dashboard version unless `appVersion` says otherwise: what unversioned calls run at. */
export const DEFAULT_APP_VERSION = 'v23.0';
export const VERSION_RE = /^v\d+\.\d+$/;

interface GraphLocals {
  traceId?: string;
}

export function traceIdOf(res: Response): string {
  const locals = res.locals as GraphLocals;
  locals.traceId ??= newTraceId();
  return locals.traceId;
}

/**
 * Headers every Graph answer carries, success or error. `facebook-api-version`
 * is the version that answered: the request's, or the app's dashboard version
 * for an unversioned call; a retired one answers as the oldest still available (./versions.ts).
 */
export const graphHeaders =
  (appVersion: string, now: () => number) =>
  (req: Request, res: Response, next: NextFunction): void => {
    const first = req.path.split('/')[1] ?? '';
    res.set({
      'x-fb-trace-id': traceIdOf(res),
      'x-fb-rev': '1027411234',
      'facebook-api-version': answeringVersion(VERSION_RE.test(first) ? first : appVersion, now()),
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'private, no-cache, no-store, must-revalidate',
      Pragma: 'no-cache',
      Expires: 'Sat, 01 Jan 2000 00:00:00 GMT',
    });
    next();
  };

/**
 * JSON exactly as the provider labels it ("application/json; charset=UTF-8"); for an older app that asked for a
 * JSONP `callback` (graph/legacy.ts), the same JSON wrapped in a call to it, as JavaScript.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const jsonp = (res.locals as { jsonp?: string }).jsonp;
  const json = JSON.stringify(body);
  // A Buffer body keeps Express from rewriting the charset parameter.
  res
    .status(status)
    .set('Content-Type', jsonp === undefined ? 'application/json; charset=UTF-8' : 'text/javascript; charset=UTF-8')
    .send(Buffer.from(jsonp === undefined ? json : `/**/ ${jsonp}(${json});`));
}

export function sendGraphError(res: Response, err: GraphError): void {
  const challenge = wwwAuthenticate(err);
  if (challenge !== undefined) res.set('WWW-Authenticate', challenge);
  sendJson(res, err.status, errorBody(err, traceIdOf(res)));
}
