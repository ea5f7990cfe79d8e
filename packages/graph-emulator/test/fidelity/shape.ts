/**
 * Compares an answer with a sample from the provider's documentation by shape: every key the sample
 * shows is in the answer, with the same JSON type, at any depth. Values are not compared (the samples
 * hold placeholders), and the answer may carry more keys than the sample shows.
 */
type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  if (t === 'string' || t === 'number' || t === 'boolean') return t;
  return 'object';
}

interface Difference {
  path: string;
  kind: 'missing' | 'type' | 'empty';
  text: string;
}

/**
 * Where `answer` departs from `sample`, one line each. Paths are dotted keys, arrays adding nothing
 * (`data.from.id`); `optional` names paths the sample shows that an answer may leave out. In an array,
 * every item is held to the sample's first item: a key is missing when no item has it, and of another
 * type when any item has it otherwise.
 */
export function shapeDifferences(sample: unknown, answer: unknown, optional: readonly string[] = []): string[] {
  return compare(sample, answer, '', new Set(optional)).map((d) => d.text);
}

function compare(sample: unknown, answer: unknown, path: string, optional: ReadonlySet<string>): Difference[] {
  const [want, got] = [typeOf(sample), typeOf(answer)];
  const at = path === '' ? '(top)' : path;
  if (want !== got) return [{ path, kind: 'type', text: `${at}: the sample has ${want}, the answer ${got}` }];
  if (want === 'array') return compareItems(sample as unknown[], answer as unknown[], path, optional);
  if (want !== 'object') return [];
  const differences: Difference[] = [];
  for (const [key, value] of Object.entries(sample as Record<string, unknown>)) {
    const child = path === '' ? key : `${path}.${key}`;
    if (!(key in (answer as Record<string, unknown>))) {
      if (!optional.has(child)) differences.push({ path: child, kind: 'missing', text: `${child}: missing` });
      continue;
    }
    differences.push(...compare(value, (answer as Record<string, unknown>)[key], child, optional));
  }
  return differences;
}

function compareItems(sample: unknown[], answer: unknown[], path: string, optional: ReadonlySet<string>): Difference[] {
  if (sample.length === 0) return [];
  if (answer.length === 0) return [{ path, kind: 'empty', text: `${path}: the sample has items, the answer none` }];
  const each = answer.map((item) => compare(sample[0], item, path, optional));
  const missingEverywhere = (d: Difference): boolean =>
    each.every((list) => list.some((other) => other.kind === 'missing' && other.path === d.path));
  const seen = new Set<string>();
  const out: Difference[] = [];
  for (const d of each.flat()) {
    if ((d.kind === 'missing' && !missingEverywhere(d)) || seen.has(d.text)) continue;
    seen.add(d.text);
    out.push(d);
  }
  return out;
}
