import busboy from 'busboy';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { BadRequestError, CsrfError } from '../errors';
import { safeEqual } from '../session/csrf';
import { MAX_PHOTO_BYTES } from './photo-check';

/**
 * The composer's body (docs/architecture.md#publishing): multipart/form-data, since it may carry a photo. Parsed
 * by busboy, the streaming parser the emulator reads the same uploads with (and multer wraps): it takes limits
 * per field, per file and per part, and hands the file over as a stream, so nothing is kept beyond them.
 *
 * CSRF comes before the body is trusted: the form's `_csrf` is its first field (browsers send fields in the
 * form's order), or the `X-CSRF-Token` header; a file that comes before either is never read, and the request is
 * refused as a forged form. requireCsrf then checks the token again as for every write.
 */

/** The composer's fields: at most this many, each at most this long (a post's text, percent-free, in UTF-8). */
const MAX_FIELDS = 12;
export const MAX_FIELD_BYTES = 256 * 1024;

/**
 * A body declaring more than this is refused unread. Up to it, a photo over MAX_PHOTO_BYTES is read to its end
 * and dropped, so the form comes back with the text kept and the limit said: a phone camera's photo is often
 * 5–15 MB, and refusing it unread would lose what the person wrote.
 */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The photo as the parser read it: its bytes, or only that it was larger than MAX_PHOTO_BYTES. */
export type Upload = { data: Buffer; tooLarge: false } | { tooLarge: true };

/** The middleware: a multipart body becomes `req.body` (fields as strings, the photo as `source`); others pass. */
export function publishBody(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.is('multipart/form-data') !== 'multipart/form-data') return next();
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return next(tooLarge());
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, files: 1, fileSize: MAX_PHOTO_BYTES, parts: 16 },
      });
    } catch {
      return next(badForm());
    }
    const stored = req.session.csrf;
    const header = req.get('x-csrf-token');
    let trusted = typeof stored === 'string' && typeof header === 'string' && safeEqual(header, stored);
    const body: Record<string, unknown> = {};
    let failed: Error | undefined;
    let received = 0;
    const fail = (err: Error) => (failed ??= err);

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(badForm());
      // A field sent twice is not the form's: the schema refuses a list.
      body[name] = Object.hasOwn(body, name) ? [body[name], value] : value;
      if (name === '_csrf' && typeof stored === 'string' && safeEqual(value, stored)) trusted = true;
    });
    parser.on('file', (name, stream) => {
      // Not read before the form is known to be this session's.
      if (!trusted || name !== 'source') {
        stream.resume();
        fail(trusted ? badForm() : new CsrfError());
        return;
      }
      const chunks: Buffer[] = [];
      let over = false;
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        chunks.push(chunk);
      });
      stream.on('limit', () => {
        over = true;
        chunks.length = 0;
      });
      stream.on('end', () => {
        if (over) body.source = { tooLarge: true } satisfies Upload;
        // An empty file input sends an empty part: no photo.
        else if (received > 0) body.source = { data: Buffer.concat(chunks), tooLarge: false } satisfies Upload;
      });
    });
    for (const limit of ['fieldsLimit', 'filesLimit', 'partsLimit'] as const) parser.on(limit, () => fail(badForm()));
    // Once: a parser that fails may still close.
    let ended = false;
    const end = (err?: Error) => {
      if (ended) return;
      ended = true;
      if (err) return next(err);
      req.body = body;
      next();
    };
    parser.on('error', () => {
      req.unpipe(parser);
      req.resume();
      end(failed ?? badForm());
    });
    parser.on('close', () => end(failed));
    req.pipe(parser);
  };
}

function badForm(): BadRequestError {
  return new BadRequestError({ key: 'error.badInput.text' });
}

function tooLarge(): BadRequestError {
  return new BadRequestError({ key: 'publish.refused.tooLarge', values: { max: MAX_PHOTO_BYTES / 1024 / 1024 } });
}
