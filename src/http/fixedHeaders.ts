import type { Request, RequestHandler, Response } from 'express';

/**
 * The same headers on every answer, without running `middleware` each time: it runs here, against a recording
 * response, and its header writes are replayed per request. helmet runs a dozen middlewares on every request
 * to set the same headers each time (docs/architecture.md#request-path).
 * A middleware that reads anything of the request or response beyond setting and removing headers, that writes
 * other values on a second run (a CSP nonce), or that does not call `next` at once, runs per request as before.
 */
export function fixedHeaders(middleware: RequestHandler): RequestHandler {
  // Twice: a value made afresh per request (a nonce) without reading the request shows as two different runs.
  const [first, second] = [record(middleware), record(middleware)];
  if (first === undefined || JSON.stringify(first) !== JSON.stringify(second)) return middleware;
  return (_req, res, next) => {
    for (const [name, value] of first) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}

type HeaderWrite = [name: string, value?: string | number | readonly string[]];

/** The header writes of one run of `middleware`, or undefined when it did anything else or did not pass on at once. */
function record(middleware: RequestHandler): HeaderWrite[] | undefined {
  const writes: HeaderWrite[] = [];
  let fixed = true;
  let passed = false;
  const untouched = (target: object) =>
    new Proxy(target, {
      get(object, key) {
        if (key === 'setHeader')
          return (name: string, value: string | number | readonly string[]) => writes.push([name, value]);
        if (key === 'removeHeader') return (name: string) => writes.push([name]);
        fixed = false;
        return Reflect.get(object, key) as unknown;
      },
      set() {
        fixed = false;
        return false;
      },
    });
  try {
    void middleware(untouched({}) as Request, untouched({}) as Response, (err?: unknown) => {
      passed = err === undefined;
    });
  } catch {
    fixed = false;
  }
  return fixed && passed ? writes : undefined;
}
