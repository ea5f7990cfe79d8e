/**
 * The `fields` parameter as the Graph API parses it (Graph API "Field
 * Expansion"): a comma list of fields, each with optional modifiers
 * `.limit(n)`, `.summary(true|false|total_count)`, `.type(large)` (a picture) or
 * `.type(LIKE)` (a reaction type), `.filter(toplevel|stream)` and
 * `.order(chronological|reverse_chronological)` (comments), `.as(alias)` (the
 * key the field is answered under, so one edge can be asked for twice) and an
 * optional nested selection `{…}` at any depth, e.g.
 * `attachments{media,subattachments.limit(3)},reactions.summary(total_count).limit(0)`.
 * Whitespace around names and punctuation is skipped. A malformed expression
 * is code 100 with the provider's `Syntax error "…" at character N: …` wording;
 * names are checked against node types later (select.ts), so an unknown name
 * is "Tried accessing nonexisting field" rather than a syntax error.
 */
import { badParam } from '../errors';

export interface FieldRequest {
  name: string;
  /** `.limit(n)`: how many items of an edge (0 = none, only the summary). */
  limit?: number;
  /** `.summary(…)`: `true` (the whole summary), `total_count` (just the count); `false` is dropped. */
  summary?: 'true' | 'total_count';
  /** `.type(…)` of `picture`. */
  type?: PictureType;
  /** `.type(…)` of `reactions`: only reactions of this kind (Object Reactions reference, `type`). */
  reactionType?: ReactionType;
  /** `.filter(…)` of `comments` (Post Comments reference): `toplevel` (the default) or `stream` (replies too). */
  filter?: 'toplevel' | 'stream';
  /** `.order(…)` of `comments`: `chronological` (the default) or `reverse_chronological`. */
  order?: 'chronological' | 'reverse_chronological';
  /** `.as(name)`: the key of the answer (Graph API field aliasing). */
  as?: string;
  /** The nested selection, when `{…}` was given. */
  fields?: FieldRequest[];
}

export const PICTURE_TYPES = ['small', 'normal', 'album', 'large', 'square'] as const;
export type PictureType = (typeof PICTURE_TYPES)[number];
/** The reaction types of the Object Reactions reference; `CARE` is the newest. */
export const REACTION_TYPES = [
  'NONE',
  'LIKE',
  'LOVE',
  'WOW',
  'HAHA',
  'SAD',
  'ANGRY',
  'THANKFUL',
  'PRIDE',
  'CARE',
] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

/** The key a field is answered under: its alias when it has one. */
export const keyOf = (req: FieldRequest): string => req.as ?? req.name;

/** Deeper than any field the emulator has; keeps recursion bounded for hostile input. */
export const MAX_DEPTH = 8;
const NAME_RE = /[a-z_][a-z0-9_]*/iy;
const ARG_RE = /[a-z0-9_]*/iy;

class Parser {
  private at = 0;
  constructor(private readonly src: string) {}

  list(depth: number): FieldRequest[] {
    const out: FieldRequest[] = [];
    for (;;) {
      this.space();
      // Empty items (`a,,b`, a trailing comma) are skipped, as the real parser does.
      if (this.peek() !== ',' && !this.atListEnd()) out.push(this.field(depth));
      this.space();
      if (this.peek() !== ',') return dedupe(out);
      this.at += 1;
    }
  }

  end(): void {
    this.space();
    if (this.at < this.src.length) this.fail('end of string');
  }

  private field(depth: number): FieldRequest {
    const req: FieldRequest = { name: this.name() };
    this.modifiers(req);
    this.space();
    if (this.peek() === '{') {
      if (depth >= MAX_DEPTH) this.fail(`at most ${MAX_DEPTH} levels of nesting`, 'a deeper "{"');
      this.at += 1;
      req.fields = this.list(depth + 1);
      this.space();
      if (this.peek() !== '}') this.fail('"}"');
      this.at += 1;
      // Modifiers may also follow the selection: `comments{message}.limit(2)`.
      this.modifiers(req);
    }
    return req;
  }

  private modifiers(req: FieldRequest): void {
    for (;;) {
      this.space();
      if (this.peek() !== '.') return;
      this.at += 1;
      this.space();
      const start = this.at;
      const name = this.name();
      this.space();
      if (this.peek() !== '(') this.fail('"("');
      this.at += 1;
      this.space();
      const arg = this.match(ARG_RE);
      this.space();
      if (this.peek() !== ')') this.fail('")"');
      this.at += 1;
      applyModifier(req, name, arg, () => this.failAt(start, `a known modifier with a valid argument`, name));
    }
  }

  private name(): string {
    const name = this.match(NAME_RE);
    if (name === '') this.fail('a field name');
    return name;
  }

  private match(re: RegExp): string {
    re.lastIndex = this.at;
    const m = re.exec(this.src);
    const text = m?.[0] ?? '';
    this.at += text.length;
    return text;
  }

  private space(): void {
    while (/\s/.test(this.src[this.at] ?? '')) this.at += 1;
  }

  private peek(): string | undefined {
    return this.src[this.at];
  }

  private atListEnd(): boolean {
    return this.at >= this.src.length || this.peek() === '}';
  }

  private fail(expected: string, found?: string): never {
    return this.failAt(this.at, expected, found);
  }

  private failAt(at: number, expected: string, found?: string): never {
    const got = found ?? (at >= this.src.length ? 'end of string' : `"${this.src[at]}"`);
    throw badParam(
      `Syntax error "Expected ${expected} instead of ${got}." at character ${at}: ${this.src.slice(0, 200)}`,
    );
  }
}

function applyModifier(req: FieldRequest, name: string, arg: string, fail: () => never): void {
  if (name === 'limit' && /^\d{1,6}$/.test(arg)) req.limit = Number(arg);
  else if (name === 'summary' && (arg === 'true' || arg === 'total_count')) req.summary = arg;
  else if (name === 'summary' && arg === 'false') delete req.summary;
  else if (name === 'type' && (PICTURE_TYPES as readonly string[]).includes(arg)) req.type = arg as PictureType;
  else if (name === 'type' && (REACTION_TYPES as readonly string[]).includes(arg))
    req.reactionType = arg as ReactionType;
  else if (name === 'filter' && (arg === 'toplevel' || arg === 'stream')) req.filter = arg;
  else if (name === 'order' && (arg === 'chronological' || arg === 'reverse_chronological')) req.order = arg;
  else if (name === 'as' && /^[a-z_][a-z0-9_]{0,63}$/i.test(arg)) req.as = arg;
  else fail();
}

/**
 * Parses `fields`; absent or blank gives `defaults` as plain requests. A name
 * given twice is kept once, as the flat lists always were.
 */
export function parseFields(raw: string | undefined, defaults: readonly string[]): FieldRequest[] {
  if (raw === undefined || raw.trim() === '') return defaults.map((name) => ({ name }));
  const parser = new Parser(raw);
  const list = parser.list(0);
  parser.end();
  return list.length === 0 ? defaults.map((name) => ({ name })) : list;
}

/** A key (name or alias) given twice is kept once, at its first occurrence. */
function dedupe(list: FieldRequest[]): FieldRequest[] {
  const seen = new Set<string>();
  return list.filter((f) => !seen.has(keyOf(f)) && seen.add(keyOf(f)) !== undefined);
}

/** `id` always comes first and is always present, like the provider's answers. */
export function withId(fields: readonly FieldRequest[]): FieldRequest[] {
  return [fields.find((f) => f.name === 'id') ?? { name: 'id' }, ...fields.filter((f) => f.name !== 'id')];
}

/** The names of a request list, for handlers that only take plain fields. */
export function namesOf(fields: readonly FieldRequest[]): string[] {
  return fields.map((f) => f.name);
}
