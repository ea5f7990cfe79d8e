/**
 * The request log tests assert on ("the token never travelled in a query").
 * Values are stored raw on purpose; this is a test tool bound to loopback.
 * Bounded so a benchmark run cannot exhaust memory.
 */
import type { NextFunction, Request, Response } from 'express';
import { flatForLog, formBody } from './params';
import type { CallFilter, LogEntry, RequestKind } from './types';

const MAX_ENTRIES = 10_000;

export class RequestLog {
  /** Live array: cleared in place so references held by tests stay current. */
  readonly entries: LogEntry[] = [];

  add(entry: LogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  clear(): void {
    this.entries.length = 0;
  }

  /** Graph and token-endpoint calls (the dialog is a browser page, not an API call). */
  calls(filter: CallFilter = {}): number {
    return this.entries.filter(
      (e) =>
        e.kind !== 'dialog' &&
        (filter.method === undefined || e.method === filter.method.toUpperCase()) &&
        (filter.path === undefined || e.path.includes(filter.path)) &&
        (filter.tokenKind === undefined || e.tokenKind === filter.tokenKind),
    ).length;
  }
}

export function requestKind(path: string): RequestKind {
  if (/\/dialog\/oauth(\/|$)/.test(path)) return 'dialog';
  if (/\/oauth\/access_token\/?$/.test(path)) return 'token';
  return 'graph';
}

/** The entry of the current request, for later middleware to fill in. */
export function logEntryOf(res: Response): LogEntry | undefined {
  return (res.locals as { logEntry?: LogEntry }).logEntry;
}

export function logRequests(log: RequestLog, now: () => number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const entry: LogEntry = {
      at: now(),
      kind: requestKind(req.path),
      method: req.method,
      path: req.path,
      query: flatForLog(req.query),
      form: {},
      tokenVia: null,
      tokenKind: null,
      appsecretProof: false,
      status: null,
    };
    (res.locals as { logEntry?: LogEntry }).logEntry = entry;
    res.on('finish', () => {
      entry.status = res.statusCode;
    });
    log.add(entry);
    next();
  };
}

/** Runs after the body parser: records the form fields as sent. */
export function logForm(req: Request, res: Response, next: NextFunction): void {
  const entry = logEntryOf(res);
  if (entry !== undefined) entry.form = flatForLog(formBody(req));
  next();
}
