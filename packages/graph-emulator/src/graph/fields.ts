/**
 * The `fields` parameter (https://developers.facebook.com/docs/graph-api/overview#fields):
 * a comma-separated list; unknown names are an error naming the field and
 * the node type. Nested selection (`location{city}`, `.limit()`) is not
 * emulated and is refused as a syntax error rather than silently ignored.
 */
import { badParam, nonexistingField } from '../errors';

const FIELD_RE = /^[a-z_][a-z0-9_]*$/i;

export function parseFields(raw: string | undefined, defaults: readonly string[]): string[] {
  if (raw === undefined || raw.trim() === '') return [...defaults];
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const name of names) {
    if (!FIELD_RE.test(name)) {
      const at = raw.indexOf(name) + (name.search(/[^a-z0-9_]/i) >= 0 ? name.search(/[^a-z0-9_]/i) : 0);
      throw badParam(`Syntax error "Unsupported field selection" at character ${at}: ${raw.slice(0, 200)}`);
    }
  }
  return names.length === 0 ? [...defaults] : [...new Set(names)];
}

/** Throws "(#100) Tried accessing nonexisting field (x) on node type (T)" for the first unknown name. */
export function requireKnown(fields: readonly string[], known: readonly string[], nodeType: string): void {
  const unknown = fields.find((f) => !known.includes(f));
  if (unknown !== undefined) throw nonexistingField(unknown, nodeType);
}

/** `id` always comes first and is always present, like the provider's answers. */
export function withId(fields: readonly string[]): string[] {
  return ['id', ...fields.filter((f) => f !== 'id')];
}
