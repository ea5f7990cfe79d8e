import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

/** An answer as the transport reads it: status, lower-cased headers, the body as text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, unknown>;
  data: string;
}

export interface GetOptions {
  agent: http.Agent;
  headers: Record<string, string>;
  /** The whole exchange, first byte sent to last byte read. */
  timeoutMs: number;
  /** Largest body, after decompression. */
  maxBytes: number;
}

/** Fails like the network errors the transport maps (./transport transportError): by `code`. */
class GetError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One GET on a keep-alive agent, with what the transport's contract needs and nothing else: a deadline on the
 * whole exchange (ETIMEDOUT), a body limit (ERR_BAD_RESPONSE), gzip/deflate/br bodies, no redirects followed.
 * The provider's reads are the hot path of a cold page view; axios's per-request plumbing (config merging,
 * header objects, adapter and stream setup) cost more CPU than the request itself there
 * (docs/architecture.md#provider-transport).
 */
export function httpGet(url: URL, options: GetOptions): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? https.request : http.request;
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(err);
    };
    const req = send(url, { method: 'GET', agent: options.agent, headers: options.headers }, (res) => {
      const declared = Number(res.headers['content-length']);
      if (declared > options.maxBytes) return fail(tooLarge(options.maxBytes));
      const body = decoded(res, fail);
      const chunks: Buffer[] = [];
      let size = 0;
      body.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) fail(tooLarge(options.maxBytes));
        else chunks.push(chunk);
      });
      body.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          data: Buffer.concat(chunks, size).toString('utf8'),
        });
      });
      body.on('error', (err: Error & { code?: string }) =>
        fail(err.code ? err : new GetError('ERR_BAD_RESPONSE', err.message)),
      );
      res.on('aborted', () => fail(new GetError('ECONNRESET', 'the answer was cut off')));
    });
    const timer = setTimeout(
      () => fail(new GetError('ETIMEDOUT', `no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    req.on('error', fail);
    req.end();
  });
}

function tooLarge(maxBytes: number): GetError {
  return new GetError('ERR_BAD_RESPONSE', `the answer is larger than ${maxBytes} bytes`);
}

/** The body as sent, or through zlib when the provider compressed it. */
function decoded(res: http.IncomingMessage, fail: (err: Error) => void): NodeJS.ReadableStream {
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  const inflate =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!inflate) return res;
  res.on('error', fail);
  return res.pipe(inflate);
}

/** What the reads ask for: compressed answers are smaller on the wire, and the provider compresses when asked. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';
