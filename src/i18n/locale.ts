import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
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

/**
 * Counts below this (a post's reactions, comments and shares, most counts a page shows) are written in the
 * language's digits and given their plural category once per language, then read from an array: Intl's
 * `format` and `select` took 0.45 µs a count, 75 counts a 25-post view
 * (docs/performance.md#the-cold-page-view-a-second-pass-2026-11-27-23300030-utc). Bounded by construction.
 */
const SMALL_COUNTS = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Days whose text `day` keeps, per length, before it starts again. */
const MAX_DAYS = 1000;

/** A count of each plural category of every language offered: zero, one, two, few, many (11; 1,000,000), other. */
const PLURAL_SAMPLES = [0, 1, 2, 3, 11, 100, 1_000_000];

/** A message compiled once: its text when it has no arguments, else its parsed form. */
type Compiled = string | readonly MessageFormatElement[];

/** An argument's value where a message is HTML: text and numbers are escaped, RenderedHtml is printed as it is. */
type HtmlValues = Readonly<Record<string, string | number | RenderedHtml>>;

/**
 * One language, built once at start (src/i18n/catalogs.ts) and shared by every request in it: its messages,
 * compiled on first use and kept, and its Intl formatters, made once — a warm view builds none
 * (docs/performance.md). Values are escaped in `html`; `t` gives text for attributes and titles.
 */
export class Locale {
  private readonly compiled = new Map<MessageKey, Compiled>();
  /** The same messages with their words escaped, for `html`: escaped once, not on every use. */
  private readonly compiledHtml = new Map<MessageKey, Compiled>();
  private readonly numbers: Intl.NumberFormat;
  private readonly exact: Intl.DateTimeFormat;
  private readonly days: Readonly<Record<'short' | 'long', Intl.DateTimeFormat>>;
  private readonly lists: { and: Intl.ListFormat; or: Intl.ListFormat };
  private readonly units = new Map<string, Intl.NumberFormat>();
  private readonly forms = new Map<MessageKey, Readonly<Record<string, string>>>();
  private readonly plurals: Intl.PluralRules;
  private ordinals: Intl.PluralRules | undefined;
  private readonly smallNumbers = new Array<string | undefined>(SMALL_COUNTS).fill(undefined);
  /** `day`'s texts by UTC day number, per length. */
  private readonly dayTexts = { short: new Map<number, string>(), long: new Map<number, string>() };
  private readonly smallCategories = new Array<Intl.LDMLPluralRule | undefined>(SMALL_COUNTS).fill(undefined);
  /** A number argument's format (`{share, number, ::percent}`), by the identity of its parsed options. */
  private readonly styled = new WeakMap<object, Intl.NumberFormat>();
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
    const weekday = new Intl.DateTimeFormat(intl, { weekday: 'long', timeZone: 'UTC' });
    // 2024-01-01 was a Monday: Monday to Sunday, as the provider's hours name them.
    this.weekdays = Array.from({ length: 7 }, (_, d) => this.mark(weekday.format(Date.UTC(2024, 0, 1 + d))));
  }

  /** A message as text (titles, attributes, a live notice); a message with markup belongs in `html`. */
  readonly t = (key: MessageKey, values?: MessageValues): string => {
    const message = this.message(key);
    return typeof message === 'string' ? message : this.write(key, message, values ?? {}, undefined);
  };

  /**
   * A message as HTML: its words and string values escaped, RenderedHtml values as they are, and its tags
   * (`<code>`, `<bdi>`, or `tags` the caller names, such as a link) made from the allowed elements only.
   */
  readonly html = (key: MessageKey, values?: HtmlValues, tags?: Readonly<Record<string, TagSpec>>): RenderedHtml => {
    const message = this.htmlMessage(key);
    return new RenderedHtml(typeof message === 'string' ? message : this.write(key, message, values ?? {}, tags ?? {}));
  };

  /** 12408 → "12,408" / "12.408" / "12 408". */
  number(n: number): string {
    return this.mark(this.count(n));
  }

  /** An exact moment, in UTC: what the page shows before (or without) its script puts it in the reader's zone. */
  dateTime(at: Date | number): string {
    return this.mark(this.exact.format(at));
  }

  /**
   * A day (its UTC date), as a chart's axis ("1 Oct", `short`) and its table ("1 Oct 2026", `long`) write it.
   * Written once per day and length: the insights show the same 56 days in four charts and their tables, about
   * 230 days written per view (docs/performance.md#shortcuts-and-the-rows-they-pay-for).
   */
  day(at: Date | number, length: 'short' | 'long'): string {
    const ms = typeof at === 'number' ? at : at.getTime();
    const written = this.dayTexts[length];
    const key = Math.floor(ms / DAY_MS);
    let text = written.get(key);
    if (text === undefined) {
      text = this.mark(this.days[length].format(ms));
      // Bounded: years of days, then forgotten and written again.
      if (written.size >= MAX_DAYS) written.clear();
      written.set(key, text);
    }
    return text;
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
    const ast = parse(source);
    checkElements(key, ast);
    // A message of words alone (most of them) is kept as its text: no formatting per use.
    const plain = ast.length === 1 && ast[0]!.type === TYPE.literal ? ast[0]!.value : ast.length === 0 ? '' : undefined;
    const compiled = plain ?? ast;
    this.compiled.set(key, compiled);
    return compiled;
  }

  private htmlMessage(key: MessageKey): Compiled {
    let escaped = this.compiledHtml.get(key);
    if (escaped === undefined) {
      const message = this.message(key);
      escaped = typeof message === 'string' ? escapeHtml(message) : escapeWords(message);
      this.compiledHtml.set(key, escaped);
    }
    return escaped;
  }

  /**
   * A parsed message with its values, as ICU MessageFormat reads it: as text, or as HTML when `tags` is given (its
   * values escaped, its words already escaped by `htmlMessage`, its tags made by `open`). `count` is the number `#`
   * stands for inside a plural. Ours rather than intl-messageformat's `format`, which builds a list of parts and
   * merges them for every message: 1.1 µs for a count and 3 µs for a post's screen-reader line, where this writes
   * the string directly (docs/architecture.md#languages). A missing value, or a tag without an element, is the
   * caller's bug.
   */
  private write(
    key: MessageKey,
    elements: readonly MessageFormatElement[],
    values: HtmlValues,
    tags: Readonly<Record<string, TagSpec>> | undefined,
    count?: number,
  ): string {
    let out = '';
    for (const el of elements) {
      if (el.type === TYPE.literal) {
        out += el.value;
        continue;
      }
      if (el.type === TYPE.pound) {
        if (count !== undefined) out += this.count(count);
        continue;
      }
      if (el.type === TYPE.tag) {
        const spec = tags?.[el.value] ?? (tags === undefined ? undefined : DEFAULT_TAGS[el.value]);
        if (spec === undefined) throw new Error(`message ${key}: no element given for <${el.value}>`);
        out += `${open(spec)}${this.write(key, el.children, values, tags, count)}</${spec[0]}>`;
        continue;
      }
      if (!Object.hasOwn(values, el.value)) throw new Error(`message ${key}: no value given for {${el.value}}`);
      const value = values[el.value]!;
      if (el.type === TYPE.argument) {
        // A value that is there but empty at run time (an optional provider field) prints nothing, as in ICU.
        if ((value as unknown) === undefined || (value as unknown) === null) continue;
        out += value instanceof RenderedHtml ? value.html : tags === undefined ? String(value) : escapeHtml(value);
      } else if (el.type === TYPE.number) {
        out += this.formatNumber(el.style, Number(value));
      } else if (el.type === TYPE.select || el.type === TYPE.plural) {
        let chosen: string;
        let inner = count;
        if (el.type === TYPE.select) {
          if (value instanceof RenderedHtml) throw new Error(`message ${key}: {${el.value}} chooses by text, not HTML`);
          chosen = String(value);
        } else {
          inner = Number(value) - el.offset;
          const exact = `=${Number(value)}`;
          chosen = Object.hasOwn(el.options, exact)
            ? exact
            : el.pluralType === 'ordinal'
              ? this.ordinal(inner)
              : this.category(inner);
        }
        const option = Object.hasOwn(el.options, chosen) ? el.options[chosen]! : el.options.other!;
        out += this.write(key, option.value, values, tags, inner);
      }
    }
    return out;
  }

  /** `{n, number}` in the language's digits, or with its skeleton's options (`::percent`), scaled as it says. */
  private formatNumber(style: NumberStyle, n: number): string {
    if (style === undefined || style === null || typeof style === 'string') return this.numbers.format(n);
    const options = style.parsedOptions;
    let format = this.styled.get(options);
    if (format === undefined) {
      format = new Intl.NumberFormat(this.intl, options as Intl.NumberFormatOptions);
      this.styled.set(options, format);
    }
    return format.format(options.scale === undefined ? n : n * options.scale);
  }

  /** A count in the language's digits (`#` in a plural). */
  private count(n: number): string {
    if (!isSmall(n)) return this.numbers.format(n);
    return (this.smallNumbers[n] ??= this.numbers.format(n));
  }

  /** A count's cardinal plural category ("one", "few", "other"). */
  private category(n: number): Intl.LDMLPluralRule {
    if (!isSmall(n)) return this.plurals.select(n);
    return (this.smallCategories[n] ??= this.plurals.select(n));
  }

  private ordinal(n: number): Intl.LDMLPluralRule {
    this.ordinals ??= new Intl.PluralRules(this.intl, { type: 'ordinal' });
    return this.ordinals.select(n);
  }
}

/** A parsed message with the text of its words escaped as HTML, at any depth; the rest as it was. */
function escapeWords(elements: readonly MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((el) => {
    if (el.type === TYPE.literal) return { ...el, value: escapeHtml(el.value) };
    if (el.type === TYPE.tag) return { ...el, children: escapeWords(el.children) };
    if (el.type === TYPE.select || el.type === TYPE.plural) {
      const options: typeof el.options = {};
      for (const [name, option] of Object.entries(el.options))
        options[name] = { ...option, value: escapeWords(option.value) };
      return { ...el, options };
    }
    return el;
  });
}

const isSmall = (n: number): boolean => Number.isInteger(n) && n >= 0 && n < SMALL_COUNTS;

type NumberStyle = Extract<MessageFormatElement, { type: TYPE.number }>['style'];

/**
 * What `write` formats: words, arguments, numbers (plain or with a skeleton), plurals, selects and tags. A date or
 * time argument, or a named number style, is refused when its message is first compiled, so the catalog test that
 * formats every message finds it.
 */
function checkElements(key: MessageKey, elements: readonly MessageFormatElement[]): void {
  for (const el of elements) {
    if (el.type === TYPE.date || el.type === TYPE.time || (el.type === TYPE.number && typeof el.style === 'string'))
      throw new Error(`message ${key}: {${el.value}} has a form the app does not format; format it before`);
    if (el.type === TYPE.tag) checkElements(key, el.children);
    if (el.type === TYPE.select || el.type === TYPE.plural)
      for (const option of Object.values(el.options)) checkElements(key, option.value);
  }
}

/**
 * The Intl locale a language formats with: English dates and numbers as they have always read here
 * ("1 Oct 2026, 12:00 UTC"), and the pseudo-locale as English.
 */
function intlTag(tag: LocaleTag): string {
  return tag === 'en' || tag === 'en-XA' ? 'en-GB' : tag;
}

/** A tag's start, its attribute values escaped. */
function open([element, attributes]: TagSpec): string {
  let out = `<${element}`;
  if (attributes !== undefined)
    for (const name of Object.keys(attributes)) out += ` ${name}="${escapeHtml(attributes[name])}"`;
  return `${out}>`;
}
