import type { PageDetails, PageLocation } from '../graph/schemas';
import { englishLocale, type MessageKey } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';
import { image, imageFilter, type ImageView } from './images';
import { httpHref, type ViewOptions } from './view-text';

/**
 * A Page shaped for people (docs/architecture.md#views): its header card and its details, formatted in the page's
 * language (hours, address, parking, attire); the templates only print these strings, escaped.
 */

export interface HoursRow {
  day: string;
  times: string[];
}

export interface PageView {
  id: string;
  name: string;
  category?: string;
  /** "12,408 followers". */
  followers?: string;
  /** The Page on the provider (http(s) only). */
  link?: string;
  picture?: ImageView;
  cover?: ImageView;
  about?: string;
  bio?: string[];
  attire?: string;
  address?: string[];
  parking?: string;
  hours?: HoursRow[];
  emails: { address: string; href: string }[];
  website?: { text: string; href?: string };
  /** The card links to the Page's insights (the app asks for read_insights). */
  insights: boolean;
  /** One quiet line for every detail the page left empty ("No bio, attire or parking given."). */
  missing?: string;
}

const NO_IMAGES = imageFilter([]);

/** The provider's day keys, Monday first; their names come from Intl in the page's language. */
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/**
 * Each day's keys of its intervals, up to 10 a day (`mon_1_open`, `mon_1_close`, …): made once, as building
 * 140 key strings for every Page view was 35 µs of a cold one:
 * docs/performance.md#the-cold-page-view-a-second-pass-2026-11-27-23300030-utc.
 */
const INTERVAL_KEYS = DAYS.map((day) =>
  Array.from({ length: 10 }, (_, i) => [`${day}_${i + 1}_open`, `${day}_${i + 1}_close`] as const),
);

/** `{"mon_1_open":"09:00","mon_1_close":"17:00",…}` → a week, each day's intervals in order, "Closed" when none. */
export function formatHours(
  hours: Record<string, string> | undefined,
  locale: Locale = englishLocale(),
): HoursRow[] | undefined {
  if (!hours || Object.keys(hours).length === 0) return undefined;
  let open = false;
  const rows = INTERVAL_KEYS.map((intervals, d) => {
    const times: string[] = [];
    for (const [opens, closes] of intervals) {
      const from = hours[opens];
      const to = hours[closes];
      if (from && to) times.push(`${from}–${to}`);
      else if (from) times.push(locale.t('hours.from', { time: from }));
    }
    if (times.length) open = true;
    return { day: locale.weekdays[d]!, times: times.length ? times : [locale.t('hours.closed')] };
  });
  return open ? rows : undefined;
}

/** An address as lines: street; "zip city, state"; country. */
export function formatAddress(location: PageLocation | undefined): string[] | undefined {
  if (!location) return undefined;
  const cityLine = [[location.zip, location.city].filter(Boolean).join(' '), location.state].filter(Boolean).join(', ');
  const lines = [location.street, cityLine, location.country].filter((l): l is string => Boolean(l && l.trim()));
  if (lines.length === 0 && location.latitude !== undefined && location.longitude !== undefined) {
    return [`${location.latitude.toFixed(5)}, ${location.longitude.toFixed(5)}`];
  }
  return lines.length ? lines : undefined;
}

const PARKING_WORDS = [
  ['lot', 'parking.lot'],
  ['street', 'parking.street'],
  ['valet', 'parking.valet'],
] as const;

export function formatParking(parking: PageDetails['parking'], locale: Locale = englishLocale()): string | undefined {
  if (!parking) return undefined;
  const offered = PARKING_WORDS.filter(([key]) => parking[key]).map(([, word]) => locale.t(word));
  if (offered.length === 0) return locale.t('parking.none');
  const text = locale.list(offered, 'and');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Only http(s) URLs become links: `javascript:` and friends stay text. A link
 * reads as the address it goes to: the URL parser repairs `https:\\evil.example`
 * into `https://evil.example/`, so showing the typed text would let a page
 * show one address and link to another.
 */
export function formatWebsite(website: string | undefined): PageView['website'] {
  const text = website?.trim();
  if (!text) return undefined;
  const href = httpHref(text);
  // Not an http(s) URL: shown as text.
  return href ? { text: href, href } : { text };
}

const EMAIL = /^[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[^\s@<>()"',;:]+$/;

export function formatEmails(emails: string[] | undefined): PageView['emails'] {
  return (emails ?? []).filter((e) => EMAIL.test(e)).map((address) => ({ address, href: `mailto:${address}` }));
}

const DETAIL_WORDS = [
  ['about', 'details.word.about'],
  ['bio', 'details.word.bio'],
  ['attire', 'details.word.attire'],
  ['address', 'details.word.address'],
  ['parking', 'details.word.parking'],
  ['hours', 'details.word.hours'],
  ['emails', 'details.word.email'],
  ['website', 'details.word.website'],
] as const;

/** "Not given: bio, attire, parking." for the details the page left empty; undefined when none is. */
export function missingDetails(view: PageView, locale: Locale = englishLocale()): string | undefined {
  const missing = DETAIL_WORDS.filter(([key]) => {
    const value = view[key];
    return value === undefined || (Array.isArray(value) && value.length === 0);
  }).map(([, word]) => locale.t(word));
  if (missing.length === 0) return undefined;
  if (missing.length === DETAIL_WORDS.length) return locale.t('details.none');
  return locale.t('details.missing', { list: locale.list(missing, 'or') });
}

const PROFILE_BOX = { width: 200, height: 200 };
/** The provider's cover ratio (820×312 on desktop); its CoverPhoto gives no size. */
const COVER_BOX = { width: 820, height: 312 };

/** The name a Page is shown under: its own, else the one the session knows, else its id. */
export function pageName(details: PageDetails, fallbackName: string, locale: Locale = englishLocale()): string {
  return details.name?.trim() || fallbackName || locale.t('page.fallbackName', { id: details.id });
}

/**
 * The provider documents `attire` as one of Casual, Dressy or Unspecified (docs/provider-interface.md#page-fields):
 * that closed set is said in the page's language; Unspecified is no answer; any other value is shown as given.
 */
const ATTIRE: Readonly<Record<string, MessageKey>> = { Casual: 'attire.casual', Dressy: 'attire.dressy' };

function formatAttire(attire: string | undefined, locale: Locale): string | undefined {
  const given = attire?.trim();
  if (!given || given === 'Unspecified') return undefined;
  return Object.hasOwn(ATTIRE, given) ? locale.t(ATTIRE[given]!) : given;
}

export function toPageView(details: PageDetails, fallbackName: string, options: ViewOptions = {}): PageView {
  const images = options.images ?? NO_IMAGES;
  const locale = options.locale ?? englishLocale();
  const address = formatAddress(details.location);
  const view: PageView = {
    id: details.id,
    name: pageName(details, fallbackName, locale),
    about: details.about?.trim() || undefined,
    bio: details.bio?.trim() ? details.bio.trim().split(/\r?\n/) : undefined,
    attire: formatAttire(details.attire, locale),
    address,
    parking: formatParking(details.parking, locale),
    hours: formatHours(details.hours, locale),
    emails: formatEmails(details.emails),
    website: formatWebsite(details.website),
    insights: options.insights ?? true,
  };
  const category = details.category?.trim();
  if (category) view.category = category;
  if (details.followers_count !== undefined)
    view.followers = locale.t('count.followers', { count: details.followers_count });
  const link = httpHref(details.link);
  if (link) view.link = options.web ? options.web(link) : link;
  // Both decorative: the Page's name is the heading beside them. Above the fold, so not lazy.
  const picture = details.picture?.data;
  const profile = image(picture?.url, picture, '', false, images, PROFILE_BOX);
  if (profile) view.picture = profile;
  const cover = image(details.cover?.source, undefined, '', false, images, COVER_BOX);
  if (cover) view.cover = cover;
  view.missing = missingDetails(view, locale);
  return view;
}
