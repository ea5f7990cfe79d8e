import type { FeedResponse, PageDetails, PageLocation, Post } from '../graph/schemas';

/**
 * Page data shaped for people (docs/architecture.md#views): the templates only print these
 * strings, escaped. Provider data is untrusted text throughout.
 */

export interface HoursRow {
  day: string;
  times: string[];
}

export interface PageView {
  id: string;
  name: string;
  about?: string;
  bio?: string[];
  attire?: string;
  address?: string[];
  parking?: string;
  hours?: HoursRow[];
  emails: { address: string; href: string }[];
  website?: { text: string; href?: string };
}

export interface PostView {
  id: string;
  lines: string[];
  isStory: boolean;
  timeIso?: string;
  timeText: string;
}

export interface FeedView {
  posts: PostView[];
  /** Cursors for our own /feed links; the provider's next/previous URLs are never used (they carry the token). */
  after?: string;
  before?: string;
}

const DAYS: [string, string][] = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
];

/** `{"mon_1_open":"09:00","mon_1_close":"17:00",…}` → a week, each day's intervals in order, "Closed" when none. */
export function formatHours(hours: Record<string, string> | undefined): HoursRow[] | undefined {
  if (!hours || Object.keys(hours).length === 0) return undefined;
  const rows = DAYS.map(([key, day]) => {
    const times: string[] = [];
    for (let n = 1; n <= 10; n++) {
      const open = hours[`${key}_${n}_open`];
      const close = hours[`${key}_${n}_close`];
      if (open && close) times.push(`${open}–${close}`);
      else if (open) times.push(`from ${open}`);
    }
    return { day, times: times.length ? times : ['Closed'] };
  });
  return rows.some((r) => r.times[0] !== 'Closed') ? rows : undefined;
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

const PARKING_WORDS: [keyof NonNullable<PageDetails['parking']>, string][] = [
  ['lot', 'parking lot'],
  ['street', 'street parking'],
  ['valet', 'valet parking'],
];

export function formatParking(parking: PageDetails['parking']): string | undefined {
  if (!parking) return undefined;
  const offered = PARKING_WORDS.filter(([key]) => parking[key]).map(([, word]) => word);
  if (offered.length === 0) return 'No parking';
  const text =
    offered.length === 1 ? offered[0]! : `${offered.slice(0, -1).join(', ')} and ${offered[offered.length - 1]}`;
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
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return { text: url.href, href: url.href };
  } catch {
    // not a URL: shown as text
  }
  return { text };
}

const EMAIL = /^[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[^\s@<>()"',;:]+$/;

export function formatEmails(emails: string[] | undefined): PageView['emails'] {
  return (emails ?? []).filter((e) => EMAIL.test(e)).map((address) => ({ address, href: `mailto:${address}` }));
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** "2026-10-01T12:00:00+0000" → "1 Oct 2026, 12:00 UTC" and the ISO form for `<time datetime>`. */
export function formatTime(created: string): { iso?: string; text: string } {
  const date = new Date(created.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  if (Number.isNaN(date.getTime())) return { text: 'Unknown time' };
  return { iso: date.toISOString(), text: `${DATE_FORMAT.format(date)} UTC` };
}

export function toPostView(post: Post): PostView {
  const text = post.message ?? post.story ?? '';
  const time = formatTime(post.created_time);
  return {
    id: post.id,
    lines: text.split(/\r?\n/),
    isStory: post.message === undefined && post.story !== undefined,
    timeIso: time.iso,
    timeText: time.text,
  };
}

/**
 * `where`: the page view shows the first (newest) posts, `/feed` an older or newer page. The provider's first
 * page can carry `previous` too, so "Newer posts" is offered only away from the first page; "Older posts"
 * exactly when the provider sent `next`, even after an empty page (docs/provider-interface.md#feed-paging).
 */
export function toFeedView(feed: FeedResponse, where: 'first' | 'older'): FeedView {
  const cursors = feed.paging?.cursors;
  return {
    posts: feed.data.map(toPostView),
    // A cursor alone does not mean there is more: the provider says so with next/previous.
    after: feed.paging?.next ? cursors?.after : undefined,
    before: where === 'older' && feed.paging?.previous ? cursors?.before : undefined,
  };
}

export function toPageView(details: PageDetails, fallbackName: string): PageView {
  const address = formatAddress(details.location);
  return {
    id: details.id,
    name: details.name?.trim() || fallbackName || `Page ${details.id}`,
    about: details.about?.trim() || undefined,
    bio: details.bio?.trim() ? details.bio.trim().split(/\r?\n/) : undefined,
    attire: details.attire && details.attire !== 'Unspecified' ? details.attire : undefined,
    address,
    parking: formatParking(details.parking),
    hours: formatHours(details.hours),
    emails: formatEmails(details.emails),
    website: formatWebsite(details.website),
  };
}
