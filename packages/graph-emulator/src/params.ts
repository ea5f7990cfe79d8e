/**
 * Request parameters. Express 5's "simple" query parser and
 * `urlencoded({ extended: false })` both yield `string | string[]` values;
 * the provider's parameters are all single strings, so repeated ones are
 * reported (and refused by callers) rather than guessed at.
 */
import type { Request } from 'express';

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

/** The body of a form POST, or nothing (GET, JSON, no parser matched). */
export function formBody(req: Request): unknown {
  return req.is('application/x-www-form-urlencoded') ? req.body : undefined;
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
