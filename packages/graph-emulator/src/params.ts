/**
 * Request parameters. Express 5's "simple" query parser and
 * `urlencoded({ extended: false })` both yield `string | string[]` values;
 * the provider's parameters are all single strings, so repeated ones are
 * reported (and refused by callers) rather than guessed at.
 *
 * A body is read like a form whether it comes urlencoded, as JSON (the
 * provider's SDKs send JSON) or as multipart/form-data (its curl samples use
 * `-F`); docs/specification.md#sending-credentials. Multipart is parsed
 * by busboy, a well-kept streaming parser, since Express has none; every
 * body is bounded like the form one.
 */
import busboy from 'busboy';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { MAX_UPLOAD_BYTES } from './media/uploads';

/** One limit for every kind of body, in bytes and in parameters. */
const BODY_LIMIT = 100 * 1024;
const PARAMETER_LIMIT = 200;

export interface CollectedParams {
  values: Record<string, string>;
  /** Names that appeared more than once (or as non-strings). */
  repeated: string[];
}

/** Later sources win, like the real API where the body overrides the query. */
export function collectParams(...sources: unknown[]): CollectedParams {
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  const repeated: string[] = [];
  for (const source of sources) {
    if (source === null || typeof source !== 'object') continue;
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
      if (typeof value === 'string') {
        values[name] = value;
      } else if (!repeated.includes(name)) {
        repeated.push(name);
      }
    }
  }
  return { values, repeated };
}

/** The body of a POST read as a form (urlencoded, multipart or JSON), or nothing (GET, another type). */
export function formBody(req: Request): unknown {
  if (req.is('application/x-www-form-urlencoded') || req.is('multipart/form-data')) return req.body;
  return req.is('application/json') ? jsonAsForm(req.body as Record<string, unknown>) : undefined;
}

/**
 * A JSON object's members as form values: strings as they are, numbers and
 * booleans as their text, lists and objects as their JSON (which is how the
 * API takes array parameters such as `subscribed_fields`); null is left out.
 */
function jsonAsForm(body: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'string') out[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') out[name] = String(value);
    else out[name] = JSON.stringify(value);
  }
  return out;
}

/** The body parsers, in order; their errors carry a 4xx `status` and a `type`, as body-parser's do. */
export function bodyParsers(): RequestHandler[] {
  return [
    express.urlencoded({ extended: false, limit: BODY_LIMIT, parameterLimit: PARAMETER_LIMIT }),
    express.json({ limit: BODY_LIMIT }),
    jsonMustBeObject,
    multipartForm,
  ];
}

function bodyError(status: number, type: string, message: string): Error {
  return Object.assign(new Error(message), { status, type });
}

/** Parameters are named, so a JSON body must be an object (a bare list has no names). */
function jsonMustBeObject(req: Request, _res: Response, next: NextFunction): void {
  const body: unknown = req.body;
  if (req.is('application/json') && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    return next(bodyError(400, 'entity.parse.failed', 'A JSON body must be an object of parameters'));
  }
  next();
}

/** A file sent as the multipart `source` of a photo upload (docs/reference.md#publishing). */
export interface Upload {
  data: Buffer;
}

const uploads = new WeakMap<Request, Upload>();

/** The file a `/photos` request carried as `source`, if any. */
export function uploadOf(req: Request): Upload | undefined {
  return uploads.get(req);
}

/** Only a photo upload (`POST …/photos`) may carry a file: one, named `source`, of at most `MAX_UPLOAD_BYTES`. */
function takesUpload(req: Request): boolean {
  return req.method === 'POST' && /\/photos\/?$/.test(req.path);
}

/**
 * multipart/form-data fields as a form (repeated names become lists); a file part is refused, except the
 * `source` of a photo upload.
 */
function multipartForm(req: Request, _res: Response, next: NextFunction): void {
  if (req.is('multipart/form-data') !== 'multipart/form-data') return next();
  const upload = takesUpload(req);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: {
        fieldSize: BODY_LIMIT,
        fields: PARAMETER_LIMIT,
        parts: PARAMETER_LIMIT,
        files: upload ? 1 : 0,
        fileSize: MAX_UPLOAD_BYTES,
      },
    });
  } catch {
    return next(bodyError(400, 'entity.parse.failed', 'The multipart body has no boundary'));
  }
  const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  const limit = upload ? BODY_LIMIT + MAX_UPLOAD_BYTES : BODY_LIMIT;
  let received = 0;
  let finished = false;
  const finish = (err?: Error): void => {
    if (finished) return;
    finished = true;
    req.unpipe(parser);
    if (err !== undefined) {
      req.resume(); // drain the rest so the connection can answer
      return next(err);
    }
    req.body = fields;
    next();
  };
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > limit) finish(bodyError(413, 'entity.too.large', 'The request body is too large'));
  });
  parser.on('file', (name, stream) => {
    if (name !== 'source') {
      stream.resume();
      return finish(bodyError(400, 'entity.parse.failed', 'The only file accepted is the photo, as source'));
    }
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => finish(bodyError(413, 'entity.too.large', 'The photo is larger than 4 MB')));
    stream.on('end', () => {
      if (!finished) uploads.set(req, { data: Buffer.concat(chunks) });
    });
  });
  parser.on('field', (name, value) => {
    const known = fields[name];
    fields[name] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
  });
  parser.on('filesLimit', () => finish(bodyError(400, 'entity.parse.failed', 'File uploads are not accepted here')));
  parser.on('fieldsLimit', () => finish(bodyError(413, 'parameters.too.many', 'Too many parameters')));
  parser.on('partsLimit', () => finish(bodyError(413, 'parameters.too.many', 'Too many parameters')));
  parser.on('error', () => finish(bodyError(400, 'entity.parse.failed', 'The multipart body could not be read')));
  parser.on('close', () => finish());
  req.pipe(parser);
}

/** Flattened copy for the request log: repeated values joined with ",". */
export function flatForLog(source: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (source === null || typeof source !== 'object') return out;
  for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
    out[name] = Array.isArray(value) ? value.map(String).join(',') : String(value);
  }
  return out;
}
