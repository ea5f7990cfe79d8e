/**
 * The emulator's words in the person's language, as the provider's dialog shows them: the dialog's `locale`
 * parameter (the provider's `ll_CC` form, `ar_AR` and `es_LA` included) wins, then the browser's
 * `Accept-Language`, then English (package README, "Languages"). One ICU catalog per language
 * (src/i18n/catalogs), compiled once per language and message.
 */
import { escapeXML } from 'ejs';
import type { Request } from 'express';
import { IntlMessageFormat } from 'intl-messageformat';
import en from './catalogs/en.json';
import de from './catalogs/de.json';
import fr from './catalogs/fr.json';
import es from './catalogs/es.json';
import ptBR from './catalogs/pt-BR.json';
import ja from './catalogs/ja.json';
import ar from './catalogs/ar.json';

export type Catalog = typeof en;
export type EmulatorKey = keyof Catalog;
export type Values = Readonly<Record<string, string | number>>;

/** The languages, each with the provider's own locale code for it. */
export const DIALOG_LANGUAGES = [
  { tag: 'en', locale: 'en_US', dir: 'ltr', catalog: en },
  { tag: 'de', locale: 'de_DE', dir: 'ltr', catalog: de },
  { tag: 'fr', locale: 'fr_FR', dir: 'ltr', catalog: fr },
  { tag: 'es', locale: 'es_LA', dir: 'ltr', catalog: es },
  { tag: 'pt-BR', locale: 'pt_BR', dir: 'ltr', catalog: ptBR },
  { tag: 'ja', locale: 'ja_JP', dir: 'ltr', catalog: ja },
  { tag: 'ar', locale: 'ar_AR', dir: 'rtl', catalog: ar },
] as const;

type Language = (typeof DIALOG_LANGUAGES)[number];

/** One language's words: `t` for text (titles, attributes), `html` for a message with `<bdi>` or `<code>` in it. */
export class Speech {
  private readonly compiled = new Map<EmulatorKey, IntlMessageFormat>();
  readonly tag: string;
  readonly dir: 'ltr' | 'rtl';

  constructor(private readonly language: Language) {
    this.tag = language.tag;
    this.dir = language.dir;
  }

  readonly t = (key: EmulatorKey, values: Values = {}): string => String(this.format(key).format<string>(values));

  /** The message as HTML: its words and values escaped, its `<bdi>` and `<code>` kept. Printed with `<%-`. */
  readonly html = (key: EmulatorKey, values: Values = {}): string => {
    const wrap = (element: string) => (chunks: unknown[]) => new Markup(`<${element}>${toHtml(chunks)}</${element}>`);
    const parts = this.format(key).format<Markup>({ ...values, bdi: wrap('bdi'), code: wrap('code') });
    return toHtml(Array.isArray(parts) ? parts : [parts]);
  };

  private format(key: EmulatorKey): IntlMessageFormat {
    let format = this.compiled.get(key);
    if (format === undefined) {
      format = new IntlMessageFormat(this.language.catalog[key] ?? en[key], this.tag);
      this.compiled.set(key, format);
    }
    return format;
  }
}

/** Markup this module made from a message's tags: everything else in a formatted message is text to escape. */
class Markup {
  constructor(readonly html: string) {}
}

function toHtml(parts: readonly unknown[]): string {
  return parts.map((p) => (p instanceof Markup ? p.html : escapeXML(String(p)))).join('');
}

const SPEECH = new Map<string, Speech>();

function speech(language: Language): Speech {
  let known = SPEECH.get(language.tag);
  if (known === undefined) {
    known = new Speech(language);
    SPEECH.set(language.tag, known);
  }
  return known;
}

/**
 * The request's language: `locale` (query, or the dialog's own form) in the provider's `ll_CC` form, matched by
 * its language (`es_ES` and `es_LA` both Spanish, `pt_PT` Brazilian Portuguese, the only Portuguese); else
 * Express's negotiator over `Accept-Language`; else English.
 */
export function speechFor(req: Request): Speech {
  const asked = [
    (req.query as Record<string, unknown>).locale,
    (req.body as Record<string, unknown> | undefined)?.locale,
  ];
  for (const value of asked) {
    if (typeof value !== 'string' || !/^[a-z]{2}(?:[_-][A-Za-z]{2,3})?$/.test(value)) continue;
    const found = byLanguage(value.slice(0, 2));
    if (found) return speech(found);
  }
  const negotiated = req.acceptsLanguages(DIALOG_LANGUAGES.map((l) => l.tag.slice(0, 2)));
  return speech((negotiated ? byLanguage(negotiated) : undefined) ?? DIALOG_LANGUAGES[0]);
}

function byLanguage(primary: string): Language | undefined {
  return DIALOG_LANGUAGES.find((l) => l.tag.slice(0, 2) === primary.toLowerCase());
}

/** English, for what is made before a request is read. */
export function englishSpeech(): Speech {
  return speech(DIALOG_LANGUAGES[0]);
}

/** A key of the catalogs: for keys made from a value (a permission's name). */
export function isMessage(key: string): key is EmulatorKey {
  return Object.hasOwn(en, key);
}
