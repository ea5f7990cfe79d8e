import type { Locale } from '../i18n/locale';
import type { ListedPage } from '../graph/schemas';
import { roleWords } from '../words';
import { image, type ImageView } from './images';
import { type ViewOptions } from './view-text';

/**
 * The picker's view model (docs/architecture.md#picker): each Page with its picture, category, followers and
 * the person's role, and the filter shown above eight Pages. The filter works without script — `?q=` marks
 * the Pages that do not match `hidden` — and public/app.js does the same as the person types, on the same
 * `data-search` text, so both agree.
 */

export interface PickerItem {
  id: string;
  name: string;
  category?: string;
  /** "3,281 followers". */
  followers?: string;
  /** "Admin", "Editor", … */
  role?: string;
  picture?: ImageView;
  /** The first letter, shown where there is no picture. */
  initial: string;
  connected: boolean;
  /** The business portfolio the Page was reached through, when not through `/me/accounts`. */
  portfolio?: string;
  /** The name's words, folded as the filter compares them (see {@link searchText}). */
  search: string;
  /** Not matching the filter: rendered with `hidden`, so the script can show it again. */
  hidden: boolean;
}

export interface PickerView {
  items: PickerItem[];
  /**
   * The filter box, when the list is long enough to need one: `shown` of `total` Pages match. `live` when every
   * Page is rendered, so the script can filter them as the person types; else the form asks the server.
   */
  filter?: { query: string; shown: number; total: number; live: boolean };
  /** Fewer Pages rendered than match: the first `count` of `of` (of those matching the query, when `filtered`). */
  listed?: { count: number; of: number; filtered: boolean };
}

/** More Pages than this and the picker offers a filter. */
export const FILTER_ABOVE = 8;

/**
 * Pages one picker view renders at most: more match, and a note says how many and that the filter finds any
 * of them (docs/architecture.md#picker).
 */
export const LISTED_AT_ONCE = 100;

/** Longest filter text taken from `?q=`. */
export const MAX_QUERY = 100;

/** The 100×100 picture the list asks for (`picture.type(normal)`), when the provider gives no size. */
const PICTURE_BOX = { width: 100, height: 100 };

/**
 * Text as the filter compares it: accents dropped, lower case, words (letters and digits) joined by one
 * space. "Hopper Compiler Café" → "hopper compiler cafe".
 */
export function searchText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ');
}

/** A name matches when the query starts one of its words: "al" finds "Fairfax Bakery Aldgate", not "Ealing". */
export function matchesQuery(search: string, query: string): boolean {
  const q = searchText(query);
  return q === '' || ` ${search}`.includes(` ${q}`);
}

/** The names' folded words, made once per list: a cached list is filtered again and again (docs/performance.md). */
const SEARCH_TEXTS = new WeakMap<readonly ListedPage[], readonly string[]>();

function searchTexts(pages: readonly ListedPage[]): readonly string[] {
  let texts = SEARCH_TEXTS.get(pages);
  if (texts === undefined) {
    texts = pages.map((p) => searchText(p.name));
    SEARCH_TEXTS.set(pages, texts);
  }
  return texts;
}

export function toPickerView(
  pages: readonly ListedPage[],
  connected: ReadonlySet<string>,
  query: string,
  images: NonNullable<ViewOptions['images']>,
  locale: Locale,
): PickerView {
  const filtering = pages.length > FILTER_ABOVE;
  const folded = searchText(query);
  const texts = searchTexts(pages);
  const nameOf = (p: ListedPage) => p.name.trim() || locale.t('page.fallbackName', { id: p.id });
  // A Page without a name is found by the words it is shown with.
  const matches = (i: number) =>
    folded === '' || ` ${texts[i] || searchText(nameOf(pages[i]!))}`.includes(` ${folded}`);
  const item = (p: ListedPage, hidden: boolean): PickerItem => {
    const name = nameOf(p);
    const made: PickerItem = {
      id: p.id,
      name,
      initial: name.charAt(0),
      connected: connected.has(p.id),
      search: searchText(name),
      hidden,
    };
    const category = p.category?.trim();
    if (category) made.category = category;
    if (p.followers_count !== undefined) made.followers = locale.t('count.followers', { count: p.followers_count });
    if (p.portfolio) made.portfolio = p.portfolio;
    const role = roleWords(locale, p.tasks);
    if (role) made.role = role;
    // Decorative: the Page's name is beside it.
    const picture = image(p.picture?.data.url, p.picture?.data, '', true, images, PICTURE_BOX);
    if (picture) made.picture = picture;
    return made;
  };
  if (!filtering) return { items: pages.map((p) => item(p, false)) };
  if (pages.length <= LISTED_AT_ONCE) {
    // Every Page rendered, those that do not match hidden: the script filters them as the person types.
    const items = pages.map((p, i) => item(p, !matches(i)));
    const shown = items.filter((i) => !i.hidden).length;
    return { items, filter: { query, shown, total: items.length, live: true } };
  }
  // A long list: the first matches only, so a view costs the same at 200 Pages as at 2,000; the form asks the
  // server, which searches them all.
  const matching: number[] = [];
  for (let i = 0; i < pages.length; i++) if (matches(i)) matching.push(i);
  const items = matching.slice(0, LISTED_AT_ONCE).map((i) => item(pages[i]!, false));
  const view: PickerView = { items, filter: { query, shown: matching.length, total: pages.length, live: false } };
  if (matching.length > items.length)
    view.listed = { count: items.length, of: matching.length, filtered: folded !== '' };
  return view;
}
