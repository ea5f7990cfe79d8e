import { IntlMessageFormat } from 'intl-messageformat';
import { TYPE } from '@formatjs/icu-messageformat-parser';
import { escapeHtml, RenderedHtml } from '../html';
import type { Catalog, MessageKey } from './catalogs';
import type { LocaleTag } from './locales';

/** A message's arguments: numbers for plurals and number formats, strings for text and selects. */
export type MessageValues = Readonly<Record<string, string | number>>;

/** A message and its arguments, as a value: what an error or a flash carries until a page says it. */
export interface Say {
  key: MessageKey;
  values?: MessageValues;
}

/**
 * The elements a message may wrap words in (`<code>…</code>`), each with the attributes the caller gives;
 * `bdi` isolates text of unknown direction (a Page's name inside Arabic), `code` an identifier.
 */
export type TagSpec = readonly ['a' | 'time' | 'code' | 'strong' | 'bdi' | 'span', Readonly<Record<string, string>>?];
const DEFAULT_TAGS: Readonly<Record<string, TagSpec>> = { code: ['code'], strong: ['strong'], bdi: ['bdi'] };

/** A count of each plural category of every language offered: zero, one, two, few, many (11; 1,000,000), other. */
const PLURAL_SAMPLES = [0, 1, 2, 3, 11, 100, 1_000_000];

/** A message compiled once: its text when it has no arguments, else the compiled format. */
type Compiled = string | IntlMessageFormat;

/**
 * One language, built once at start (src/i18n/catalogs.ts) and shared by every request in it: its messages,
 * compiled on first use and kept, and its Intl formatters, made once — a warm view builds none
 * (docs/performance.md). Values are escaped in `html`; `t` gives text for attributes and titles.
 */
export class Locale {
  private readonly compiled = new Map<MessageKey, Compiled>();
  private readonly numbers: Intl.NumberFormat;
  private readonly exact: Intl.DateTimeFormat;
  private readonly days: Readonly<Record<'short' | 'long', Intl.DateTimeFormat>>;
  private readonly lists: { and: Intl.ListFormat; or: Intl.ListFormat };
  private readonly units = new Map<string, Intl.NumberFormat>();
  private readonly forms = new Map<MessageKey, Readonly<Record<string, string>>>();
  private readonly plurals: Intl.PluralRules;
  /** What intl-messageformat formats a message's numbers, dates and plurals with: this language's, made once. */
  private readonly formatters: Formatters;
  readonly weekdays: readonly string[];
  /** The Intl locale this language formats with (English as en-GB), for public/app.js to format as the server does. */
  readonly intl: string;

  constructor(
    readonly tag: LocaleTag,
    readonly dir: 'ltr' | 'rtl',
    private readonly catalog: Catalog,
    private readonly fallback: Catalog,
  ) {
    const intl = intlTag(tag);
    this.intl = intl;
    this.numbers = new Intl.NumberFormat(intl);
    this.plurals = new Intl.PluralRules(intl);
    this.exact = new Intl.DateTimeFormat(intl, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'UTC',
      timeZoneName: 'short',
    });
    this.days = {
      short: new Intl.DateTimeFormat(intl, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
      long: new Intl.DateTimeFormat(intl, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }),
    };
    this.lists = {
      and: new Intl.ListFormat(intl, { type: 'conjunction' }),
      or: new Intl.ListFormat(intl, { type: 'disjunction' }),
    };
    this.formatters = formattersOf(intl, this.numbers, this.plurals);
    const weekday = new Intl.DateTimeFormat(intl, { weekday: 'long', timeZone: 'UTC' });
    // 2024-01-01 was a Monday: Monday to Sunday, as the provider's hours name them.
    this.weekdays = Array.from({ length: 7 }, (_, d) => this.mark(weekday.format(Date.UTC(2024, 0, 1 + d))));
  }

  /** A message as text (titles, attributes, a live notice); a message with markup belongs in `html`. */
  readonly t = (key: MessageKey, values?: MessageValues): string => {
    const message = this.message(key);
    if (typeof message === 'string') return message;
    return String(message.format<string>(values ?? {}));
  };

  /**
   * A message as HTML: its words and string values escaped, RenderedHtml values as they are, and its tags
   * (`<code>`, `<bdi>`, or `tags` the caller names, such as a link) made from the allowed elements only.
   */
  readonly html = (
    key: MessageKey,
    values?: Readonly<Record<string, string | number | RenderedHtml>>,
    tags?: Record<string, TagSpec>,
  ): RenderedHtml => {
    const message = this.message(key);
    if (typeof message === 'string') return new RenderedHtml(escapeHtml(message));
    // Tags and arguments share one namespace in ICU: only this message's own tags get a handler.
    const handlers: Record<string, (chunks: unknown[]) => RenderedHtml> = {};
    for (const name of tagsOf(message.getAst())) {
      const spec = tags?.[name] ?? DEFAULT_TAGS[name];
      if (spec === undefined) throw new Error(`message ${key}: no element given for <${name}>`);
      handlers[name] = (chunks) => new RenderedHtml(`${open(spec)}${joinHtml(chunks)}</${spec[0]}>`);
    }
    const parts = message.format<RenderedHtml>({ ...values, ...handlers });
    return new RenderedHtml(joinHtml(Array.isArray(parts) ? parts : [parts]));
  };

  /** 12408 → "12,408" / "12.408" / "12 408". */
  number(n: number): string {
    return this.mark(this.numbers.format(n));
  }

  /** An exact moment, in UTC: what the page shows before (or without) its script puts it in the reader's zone. */
  dateTime(at: Date | number): string {
    return this.mark(this.exact.format(at));
  }

  /** A day (its UTC date), as a chart's axis ("1 Oct", `short`) and its table ("1 Oct 2026", `long`) write it. */
  day(at: Date | number, length: 'short' | 'long'): string {
    return this.mark(this.days[length].format(at));
  }

  /** ["a", "b", "c"] → "a, b and c" (`and`) or "a, b or c" (`or`), with the language's own commas and words. */
  list(items: readonly string[], kind: 'and' | 'or'): string {
    return this.mark(this.lists[kind].format(items));
  }

  /** 7 and "day" → "7 days" / "7 Tage" / "7日間"; plurals as the language makes them (Intl's unit names). */
  unit(n: number, unit: 'second' | 'minute' | 'hour' | 'day'): string {
    let format = this.units.get(unit);
    if (format === undefined) {
      format = new Intl.NumberFormat(intlTag(this.tag), {
        style: 'unit',
        unit,
        unitDisplay: 'long',
      });
      this.units.set(unit, format);
    }
    return this.mark(format.format(n));
  }

  /** The pseudo-locale marks what Intl words for it too, like its messages: such text is the Locale's, not a literal. */
  private mark(text: string): string {
    return this.tag === 'en-XA' ? `⟦${text}⟧` : text;
  }

  /**
   * A count message for public/app.js, which has no message format: its text for each plural category of the
   * language, with `#` where the count goes ({"one": "# new post — Show", "other": "# new posts — Show"}).
   * The script picks the form with Intl.PluralRules in the page's language. Made once per message.
   */
  pluralForms(key: MessageKey): Readonly<Record<string, string>> {
    let forms = this.forms.get(key);
    if (forms !== undefined) return forms;
    const made: Record<string, string> = {};
    for (const n of PLURAL_SAMPLES) {
      const category = this.plurals.select(n);
      if (made[category] === undefined) made[category] = this.t(key, { count: n }).replace(this.number(n), '#');
    }
    forms = made;
    this.forms.set(key, forms);
    return forms;
  }

  private message(key: MessageKey): Compiled {
    const known = this.compiled.get(key);
    if (known !== undefined) return known;
    const source = this.catalog[key] ?? this.fallback[key];
    const format = new IntlMessageFormat(source, intlTag(this.tag), undefined, { formatters: this.formatters });
    const ast = format.getAst();
    // A message of words alone (most of them) is kept as its text: no formatting per use.
    const plain = ast.length === 1 && ast[0]!.type === TYPE.literal ? ast[0]!.value : ast.length === 0 ? '' : undefined;
    const compiled = plain ?? format;
    this.compiled.set(key, compiled);
    return compiled;
  }
}

/** intl-messageformat's formatter lookups (its `formatters` option). */
type Formatters = NonNullable<ConstructorParameters<typeof IntlMessageFormat>[3]>['formatters'] & object;

/**
 * The formatters a language's messages use, in place of intl-messageformat's default lookups, which serialise their
 * arguments with JSON.stringify on every number, date or plural of every message formatted (the largest part of a
 * message's cost in a profile of cold page views, docs/performance.md#the-cold-page-view-against-f8564d5). A message's
 * options are objects of its parsed form, made once when it is compiled, so they key the Intl objects by identity;
 * plain numbers and cardinal plurals use the language's own.
 */
function formattersOf(intl: string, numbers: Intl.NumberFormat, plurals: Intl.PluralRules): Formatters {
  const numberFormats = new WeakMap<object, Intl.NumberFormat>();
  const dateFormats = new WeakMap<object, Intl.DateTimeFormat>();
  let plainDates: Intl.DateTimeFormat | undefined;
  let ordinals: Intl.PluralRules | undefined;
  return {
    getNumberFormat: (_locales, options?: Intl.NumberFormatOptions) => {
      if (options === undefined) return numbers;
      let format = numberFormats.get(options);
      if (format === undefined) numberFormats.set(options, (format = new Intl.NumberFormat(intl, options)));
      return format;
    },
    getDateTimeFormat: (_locales, options?: Intl.DateTimeFormatOptions) => {
      if (options === undefined) return (plainDates ??= new Intl.DateTimeFormat(intl));
      let format = dateFormats.get(options);
      if (format === undefined) dateFormats.set(options, (format = new Intl.DateTimeFormat(intl, options)));
      return format;
    },
    getPluralRules: (_locales, options?: Intl.PluralRulesOptions) =>
      options?.type === 'ordinal' ? (ordinals ??= new Intl.PluralRules(intl, { type: 'ordinal' })) : plurals,
  };
}

/**
 * The Intl locale a language formats with: English dates and numbers as they have always read here
 * ("1 Oct 2026, 12:00 UTC"), and the pseudo-locale as English.
 */
function intlTag(tag: LocaleTag): string {
  return tag === 'en' || tag === 'en-XA' ? 'en-GB' : tag;
}

/** The tag names a message uses, at any depth. */
function tagsOf(elements: ReturnType<IntlMessageFormat['getAst']>, into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.tag) {
      into.add(el.value);
      tagsOf(el.children, into);
    }
    if (el.type === TYPE.select || el.type === TYPE.plural)
      for (const option of Object.values(el.options)) tagsOf(option.value, into);
  }
  return into;
}

function open([element, attributes]: TagSpec): string {
  const attrs = Object.entries(attributes ?? {})
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return `<${element}${attrs}>`;
}

/** Formatted parts as HTML: strings (words and values) escaped, HTML made here or by a template as it is. */
function joinHtml(parts: readonly unknown[]): string {
  return parts.map((p) => (p instanceof RenderedHtml ? p.html : escapeHtml(p))).join('');
}
