import type { Locale } from '../i18n/locale';
import type { ListedPage } from '../graph/schemas';
import { roleWords } from '../words';
import { image, type ImageView, type ViewOptions } from './view-model';

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
  /** The filter box, when the list is long enough to need one. */
  filter?: { query: string; shown: number; total: number };
}

/** More Pages than this and the picker offers a filter. */
export const FILTER_ABOVE = 8;

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

export function toPickerView(
  pages: readonly ListedPage[],
  connected: ReadonlySet<string>,
  query: string,
  images: NonNullable<ViewOptions['images']>,
  locale: Locale,
): PickerView {
  const filtering = pages.length > FILTER_ABOVE;
  const items = pages.map((p): PickerItem => {
    const name = p.name.trim() || locale.t('page.fallbackName', { id: p.id });
    const search = searchText(name);
    const item: PickerItem = {
      id: p.id,
      name,
      initial: name.charAt(0),
      connected: connected.has(p.id),
      search,
      hidden: filtering && !matchesQuery(search, query),
    };
    const category = p.category?.trim();
    if (category) item.category = category;
    if (p.followers_count !== undefined) item.followers = locale.t('count.followers', { count: p.followers_count });
    if (p.portfolio) item.portfolio = p.portfolio;
    const role = roleWords(locale, p.tasks);
    if (role) item.role = role;
    // Decorative: the Page's name is beside it.
    const picture = image(p.picture?.data.url, p.picture?.data, '', true, images, PICTURE_BOX);
    if (picture) item.picture = picture;
    return item;
  });
  if (!filtering) return { items };
  const shown = items.filter((i) => !i.hidden).length;
  return { items, filter: { query, shown, total: items.length } };
}
