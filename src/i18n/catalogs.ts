import en from './catalogs/en.json';
import de from './catalogs/de.json';
import fr from './catalogs/fr.json';
import es from './catalogs/es.json';
import ptBR from './catalogs/pt-BR.json';
import ja from './catalogs/ja.json';
import ar from './catalogs/ar.json';
import { Locale, type Say } from './locale';
import { DEFAULT_TAG, LANGUAGES, PSEUDO, type LocaleTag } from './locales';

/**
 * One message catalog per language (src/i18n/catalogs/<tag>.json), ICU MessageFormat: English is the source,
 * and its keys are the message keys. A catalog missing a key does not compile (each is typed as English's);
 * test/i18n/catalogs.test.ts finds extra keys and arguments that do not agree with English.
 */
export type Catalog = typeof en;
export type MessageKey = keyof Catalog;

export const CATALOGS: Readonly<Record<Exclude<LocaleTag, 'en-XA'>, Catalog>> = {
  en,
  de,
  fr,
  es,
  'pt-BR': ptBR,
  ja,
  ar,
};

/** English with every message between ⟦ and ⟧: text on a page outside them came from no catalog. */
function pseudoCatalog(): Catalog {
  const wrapped: Record<string, string> = {};
  for (const [key, message] of Object.entries(en)) wrapped[key] = `⟦${message}⟧`;
  return wrapped as Catalog;
}

/** Every language's Locale, built once (src/context.ts); the pseudo-locale only when tests ask for it. */
export class Locales {
  private readonly byTag = new Map<LocaleTag, Locale>();
  readonly english: Locale;

  constructor(readonly pseudo = false) {
    // English is the process's one English Locale, which the log's words and views made without a request use too.
    for (const { tag, dir } of LANGUAGES)
      this.byTag.set(tag, tag === 'en' ? englishLocale() : new Locale(tag, dir, CATALOGS[tag], en));
    if (pseudo) this.byTag.set(PSEUDO.tag, new Locale(PSEUDO.tag, PSEUDO.dir, pseudoCatalog(), en));
    this.english = this.byTag.get(DEFAULT_TAG)!;
  }

  get(tag: LocaleTag): Locale {
    return this.byTag.get(tag) ?? this.english;
  }
}

let english: Locale | undefined;

/** English, made on first use: for the log's words and for view models shaped without a request (tests). */
export function englishLocale(): Locale {
  english ??= new Locale('en', 'ltr', en, en);
  return english;
}

/** A message in English: what the log says of an error the person reads in their language. */
export function englishText(say: Say): string {
  return englishLocale().t(say.key, say.values);
}

/** A key of the catalogs: for keys made from a value (a permission's name) or read back from a session. */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}
