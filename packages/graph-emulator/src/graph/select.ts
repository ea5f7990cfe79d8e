/**
 * Answers a parsed `fields` expression against a node's value: which fields
 * exist on which node type (checked for the whole tree before anything is
 * read, so a misspelt nested field fails even where the data is absent),
 * nested objects projected to the fields asked for, and edges answered as
 * `{data, paging?, summary?}` with `.limit(n)` and `.summary(…)` applied
 * (Graph API "Field Expansion"; Object Reactions reference for the summary).
 */
import { badParam, nonexistingField } from '../errors';
import type { GraphCall } from './call';
import { keyOf, type FieldRequest } from './fields';
import { encodeCursor } from './paging';

export interface ObjectType {
  name: string;
  fields: Readonly<Record<string, FieldKind>>;
  /** Fields an edge item carries when no nested selection is given; every field that is set when absent. */
  defaults?: readonly string[];
}

export type FieldKind =
  | { kind: 'scalar' }
  /** A structured value (or a list of them); a nested selection keeps only the named keys. */
  | { kind: 'object'; type: ObjectType }
  /** `{data: {…}}` (a profile picture): the nested selection applies inside `data`. */
  | { kind: 'data'; type: ObjectType }
  | { kind: 'edge'; type: ObjectType; defaultLimit: number; paged: boolean; guard?: (call: GraphCall) => void };

export const SCALAR: FieldKind = { kind: 'scalar' };

/** An edge's value before `.limit` and `.summary` are applied. */
export interface EdgeValue {
  total: number;
  /** The first `n` items, in full; `id` keys the paging cursors. */
  slice(n: number): Record<string, unknown>[];
  /** The whole summary (`.summary(true)`); `.summary(total_count)` keeps `total_count` only. */
  summary: Record<string, unknown>;
  /** Scope of the cursors, e.g. `<post id>.reactions`. */
  scope: string;
  /** The edge as `.type()`, `.filter()` and `.order()` narrow or order it; without this they change nothing. */
  narrow?(req: FieldRequest): EdgeValue;
}

/** Throws 100 for the first name a node type does not have, at any depth. */
export function validate(requests: readonly FieldRequest[], type: ObjectType): void {
  for (const req of requests) {
    const kind = type.fields[req.name];
    if (kind === undefined) throw nonexistingField(req.name, type.name);
    if (req.fields === undefined) continue;
    if (kind.kind === 'scalar')
      throw badParam(`Field ${req.name} of node type (${type.name}) takes no nested selection`);
    validate(req.fields, kind.type);
  }
}

/** The requested fields of `value` that are set, in request order, each under its alias if it has one; unset ones are omitted, never null. */
export function project(
  call: GraphCall,
  value: Readonly<Record<string, unknown>>,
  requests: readonly FieldRequest[],
  type: ObjectType,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const req of requests) {
    const kind = type.fields[req.name];
    const v = value[req.name];
    if (kind === undefined || v === undefined) continue;
    out[keyOf(req)] = answer(call, v, req, kind);
  }
  return out;
}

function answer(call: GraphCall, v: unknown, req: FieldRequest, kind: FieldKind): unknown {
  switch (kind.kind) {
    case 'scalar':
      return v;
    case 'object': {
      const { fields } = req;
      if (fields === undefined) return v;
      // A list of objects (`category_list`): the selection applies to each.
      if (Array.isArray(v)) return v.map((item) => project(call, item as Record<string, unknown>, fields, kind.type));
      return project(call, v as Record<string, unknown>, fields, kind.type);
    }
    case 'data': {
      const { data } = v as { data: Record<string, unknown> };
      return { data: req.fields === undefined ? data : project(call, data, req.fields, kind.type) };
    }
    case 'edge':
      return edge(call, v as EdgeValue, req, kind);
  }
}

function edge(
  call: GraphCall,
  whole: EdgeValue,
  req: FieldRequest,
  kind: Extract<FieldKind, { kind: 'edge' }>,
): Record<string, unknown> {
  const v = whole.narrow?.(req) ?? whole;
  const limit = Math.min(req.limit ?? kind.defaultLimit, 100);
  if (limit > 0) kind.guard?.(call);
  const items = v.slice(limit);
  const fields = req.fields ?? (kind.type.defaults ?? Object.keys(kind.type.fields)).map((name) => ({ name }));
  const out: Record<string, unknown> = { data: items.map((item) => project(call, item, fields, kind.type)) };
  const first = items[0]?.id;
  const last = items[items.length - 1]?.id;
  if (kind.paged && typeof first === 'string' && typeof last === 'string') {
    // Cursors only: the emulator does not serve the edge on its own, so there is no `next` link to follow.
    out.paging = { cursors: { before: encodeCursor(v.scope, first), after: encodeCursor(v.scope, last) } };
  }
  if (req.summary === 'true') out.summary = { ...v.summary };
  else if (req.summary === 'total_count') out.summary = { total_count: v.total };
  return out;
}

/** An ObjectType whose fields are all plain values. */
export function scalars(name: string, names: readonly string[], defaults?: readonly string[]): ObjectType {
  return {
    name,
    fields: Object.fromEntries(names.map((n) => [n, SCALAR])),
    ...(defaults !== undefined ? { defaults } : {}),
  };
}
