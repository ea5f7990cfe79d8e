/**
 * The languages Pagelight speaks and how one is chosen for a request (docs/architecture.md#languages).
 * Pure values: the middleware that reads the request is src/http/language.ts.
 */

/** Each language: its tag (`<html lang>`, `Content-Language`), writing direction and own name (the menu). */
export interface LanguageInfo {
  tag: LocaleTag;
  dir: 'ltr' | 'rtl';
  /** The language's name in itself, as the menu shows it to the people who read it. */
  name: string;
}

export const LANGUAGES = [
  { tag: 'en', dir: 'ltr', name: 'English' },
  { tag: 'de', dir: 'ltr', name: 'Deutsch' },
  { tag: 'fr', dir: 'ltr', name: 'Français' },
  { tag: 'es', dir: 'ltr', name: 'Español' },
  { tag: 'pt-BR', dir: 'ltr', name: 'Português (Brasil)' },
  { tag: 'ja', dir: 'ltr', name: '日本語' },
  { tag: 'ar', dir: 'rtl', name: 'العربية' },
] as const satisfies readonly { tag: string; dir: 'ltr' | 'rtl'; name: string }[];

/**
 * The pseudo-locale: English with every message between markers, enabled only by tests
 * (`buildContext`'s `pseudoLocale`), to find text that does not come from a catalog.
 */
export const PSEUDO = { tag: 'en-XA', dir: 'ltr', name: 'Pseudo' } as const;

export type LocaleTag = (typeof LANGUAGES)[number]['tag'] | typeof PSEUDO.tag;

export const DEFAULT_TAG: LocaleTag = 'en';

/**
 * The tags negotiation offers, by primary language: `de-AT` finds `de`, `pt` and `pt-PT` find `pt` (the
 * Brazilian Portuguese catalog, the only Portuguese one). Negotiator (Express's own, through
 * `req.acceptsLanguages`) matches a request's `de-AT` to an offered `de`, so offering primary tags is what
 * makes regional variants fall back to their language.
 */
export function offeredTags(pseudo: boolean): string[] {
  const primary = LANGUAGES.map((l) => l.tag.split('-')[0]!);
  return pseudo ? [...primary, PSEUDO.tag] : primary;
}

/** An offered tag (as negotiation or the menu gives it, any case) → the locale's tag; unknown → undefined. */
export function localeTagOf(raw: string | undefined, pseudo: boolean): LocaleTag | undefined {
  if (raw === undefined) return undefined;
  const lower = raw.toLowerCase();
  if (pseudo && lower === PSEUDO.tag.toLowerCase()) return PSEUDO.tag;
  return LANGUAGES.find((l) => l.tag.toLowerCase() === lower || l.tag.split('-')[0] === lower)?.tag;
}

/** Entries of `Accept-Language` negotiation reads: browsers send a handful, the first ones rank highest. */
export const NEGOTIATED_ENTRIES = 8;
/** Characters of `Accept-Language` negotiation reads: eight entries such as `pt-BR;q=0.9` fit in a third of it. */
export const NEGOTIATED_CHARS = 256;

/**
 * The part of an `Accept-Language` header negotiation reads: its first entries within a bound of characters,
 * an entry cut by the bound dropped. Negotiation weighs every entry against every language offered, so an
 * unbounded header (15 KB of `*,`) would cost milliseconds of CPU on each request (docs/operations.md#security-notes).
 */
export function negotiatedPart(header: string): string {
  const cut = header.length > NEGOTIATED_CHARS;
  const entries = header.slice(0, NEGOTIATED_CHARS).split(',', NEGOTIATED_ENTRIES + 1);
  // The entry the bound cut in two could read as another language (`de-AT` as `de-A`, `de` as `d`).
  if (cut && entries.length <= NEGOTIATED_ENTRIES) entries.pop();
  return entries.slice(0, NEGOTIATED_ENTRIES).join(',');
}
