import type { FeedResponse, PageDetails, PageLocation, Post } from '../graph/schemas';
import { englishLocale, type MessageKey } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';
import { imageFilter } from './images';
import { PROVIDER_WEB_ORIGIN } from '../graph/provider';

/**
 * Page data shaped for people (docs/architecture.md#views): the templates only print these
 * strings, escaped. Provider data is untrusted text throughout.
 */

export interface HoursRow {
  day: string;
  times: string[];
}

/** An image the view may show: on an origin of FB_IMAGE_ORIGINS, with its box size (no layout shift). */
export interface ImageView {
  src: string;
  width: number;
  height: number;
  /** Empty when the image is decorative (the text beside it says what it shows). */
  alt: string;
  /** Below the fold: loaded when scrolled near. */
  lazy: boolean;
  /** The size is a guess (the provider gave none): the image is cropped to the box. */
  cropped: boolean;
}

/** A run of text, or a link whose text is the address it goes to. */
export interface Segment {
  text: string;
  href?: string;
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

export interface LinkPreview {
  href?: string;
  title: string;
  domain?: string;
  image?: ImageView;
}

export interface PostView {
  id: string;
  /** Paragraphs, each a list of segments; `more` is the rest of a long text, behind "See more". */
  lines: Segment[][];
  more?: Segment[][];
  /** What happened, in the provider's words ("… updated their cover photo."), above the message if any. */
  story?: string;
  /** Only a story, no message of its own. */
  isStory: boolean;
  timeIso?: string;
  timeText: string;
  picture?: ImageView;
  /** "+3" on an album: the photos beyond the first. */
  extra?: string;
  preview?: LinkPreview;
  /** "12 reactions", "3 comments", "1 share": the non-zero counts. */
  counts: string[];
  permalink?: string;
  /** The post's own page here (its counts and "+N" lead there); only for the Page's own post ids. */
  href?: string;
}

export interface FeedView {
  posts: PostView[];
  /** Cursors for our own /feed links; the provider's next/previous URLs are never used (they carry the token). */
  after?: string;
  before?: string;
  /** Our links to the older and newer pages; "newer" from the second page is the page view itself. */
  older?: string;
  newer?: string;
  /** "Posts 26–50", when the position is known. */
  position?: string;
  /** The provider has nothing older: this page ends with the Page's first post. */
  end: boolean;
}

/** What shaping a view needs beyond the answer: the language, the images the CSP allows, where the feed page stands. */
export interface ViewOptions {
  /** The page's language (docs/architecture.md#languages). Default: English. */
  locale?: Locale;
  /** Default: no image is shown. */
  images?: (url: string | undefined) => string | undefined;
  /** Where the provider's web links lead ({@link providerWeb}); default: as the provider gave them. */
  web?: (href: string) => string;
  /** Posts before this feed page (our own `offset` link parameter); undefined when not known. */
  offset?: number;
  /** The Page card links to its insights: the app asks for read_insights (./offered.ts). Default: yes. */
  insights?: boolean;
}

/** Posts per feed call (the `limit` the client asks for). */
export const FEED_PAGE_SIZE = 25;
const NO_IMAGES = imageFilter([]);

/** The provider's day keys, Monday first; their names come from Intl in the page's language. */
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** `{"mon_1_open":"09:00","mon_1_close":"17:00",…}` → a week, each day's intervals in order, "Closed" when none. */
export function formatHours(
  hours: Record<string, string> | undefined,
  locale: Locale = englishLocale(),
): HoursRow[] | undefined {
  if (!hours || Object.keys(hours).length === 0) return undefined;
  let open = false;
  const rows = DAYS.map((key, d) => {
    const times: string[] = [];
    for (let n = 1; n <= 10; n++) {
      const from = hours[`${key}_${n}_open`];
      const to = hours[`${key}_${n}_close`];
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

/**
 * "2026-10-01T12:00:00+0000" → "1 Oct 2026, 12:00 UTC" in the page's language, and the ISO form for
 * `<time datetime>`. The formatter is the Locale's, made once: a cold view formats 25 of these, and building
 * an Intl formatter per post was the largest app cost the profile of a cold view showed
 * (docs/architecture.md#views).
 */
export function formatTime(created: string, locale: Locale = englishLocale()): { iso?: string; text: string } {
  const date = new Date(created.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  if (Number.isNaN(date.getTime())) return { text: locale.t('post.unknownTime') };
  return { iso: date.toISOString(), text: locale.dateTime(date) };
}

/**
 * The provider's web links (a Page's `link`, a post's `permalink_url`) moved onto the origin of `base`
 * (FB_AUTH_URL): unchanged in production, the emulator's www host in demo mode. Other links stay as they are.
 */
export function providerWeb(base: string): (href: string) => string {
  const target = new URL(base).origin;
  return (href) => {
    const url = new URL(href);
    return url.origin === PROVIDER_WEB_ORIGIN ? `${target}${url.pathname}${url.search}${url.hash}` : href;
  };
}

/** An http(s) URL, normalised; anything else (`javascript:`, relative, junk) is no link. */
export function httpHref(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"]+/gi;
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '"', '*']);
const OPENERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/**
 * Punctuation after a URL in prose belongs to the sentence; a closing bracket only when it opened outside
 * (more closers than openers of its kind in what is left). One count, then one pass back from the end: post
 * text is anyone's, and this must stay linear in it (docs/architecture.md#security-rules).
 */
function trimUrl(candidate: string): string {
  const count: Record<string, number> = { '(': 0, ')': 0, '[': 0, ']': 0, '{': 0, '}': 0 };
  for (const ch of candidate) if (ch in count) count[ch]!++;
  let end = candidate.length;
  while (end > 0) {
    const last = candidate.charAt(end - 1);
    const opener = OPENERS[last];
    if (TRAILING.has(last)) end--;
    else if (opener !== undefined && count[opener]! < count[last]!) {
      count[last]!--;
      end--;
    } else break;
  }
  return candidate.slice(0, end);
}

/**
 * A line of post text with its http(s) URLs as links. As in formatWebsite, the link text is the URL as the
 * parser normalises it, so the text always reads as the address the link goes to; other schemes stay text.
 */
export function linkify(line: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const match of line.matchAll(URL_IN_TEXT)) {
    const start = match.index;
    const candidate = trimUrl(match[0]);
    const href = httpHref(candidate);
    if (!href || !new URL(href).hostname) continue;
    if (start > last) out.push({ text: line.slice(last, start) });
    out.push({ text: href, href });
    last = start + candidate.length;
  }
  if (last < line.length || out.length === 0) out.push({ text: line.slice(last) });
  return out;
}

/** Text up to about this many characters or lines shows whole; longer text shows this much and "See more". */
export const SEE_MORE_CHARS = 320;
export const SEE_MORE_LINES = 5;

/** Splits long text at a word boundary near SEE_MORE_CHARS (or after SEE_MORE_LINES lines); short text: undefined. */
export function splitLong(lines: string[]): { head: string[]; rest: string[] } | undefined {
  const total = lines.reduce((n, l) => n + l.length, 0);
  // Hiding a few words behind a button costs more than it saves.
  if (total <= SEE_MORE_CHARS * 1.25 && lines.length <= SEE_MORE_LINES + 1) return undefined;
  const head: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (head.length >= SEE_MORE_LINES) return { head, rest: lines.slice(i) };
    if (used + line.length <= SEE_MORE_CHARS) {
      head.push(line);
      used += line.length;
      continue;
    }
    const cut = line.lastIndexOf(' ', SEE_MORE_CHARS - used);
    if (cut <= 0) return head.length ? { head, rest: lines.slice(i) } : undefined;
    head.push(line.slice(0, cut));
    return { head, rest: [line.slice(cut + 1), ...lines.slice(i + 1)] };
  }
  return undefined;
}

type Attachment = NonNullable<NonNullable<Post['attachments']>['data'][number]>;

/** The shown domain of a link: the provider may wrap it in its redirector (`l.facebook.com/l.php?u=…`). */
export function linkDomain(raw: string | undefined): string | undefined {
  const href = httpHref(raw);
  if (!href) return undefined;
  const url = new URL(href);
  const wrapped = url.hostname === 'l.facebook.com' ? httpHref(url.searchParams.get('u') ?? undefined) : undefined;
  return new URL(wrapped ?? href).hostname.replace(/^www\./, '') || undefined;
}

export function image(
  src: string | undefined,
  size: { width?: number | undefined; height?: number | undefined } | undefined,
  alt: string,
  lazy: boolean,
  images: NonNullable<ViewOptions['images']>,
  fallback: { width: number; height: number },
): ImageView | undefined {
  const allowed = images(src);
  if (!allowed) return undefined;
  const known = size?.width !== undefined && size.height !== undefined;
  return {
    src: allowed,
    width: known ? size.width! : fallback.width,
    height: known ? size.height! : fallback.height,
    alt,
    lazy,
    cropped: !known,
  };
}

const POST_BOX = { width: 720, height: 540 };
const PREVIEW_BOX = { width: 1200, height: 630 };

export function toPostView(post: Post, options: ViewOptions = {}): PostView {
  const images = options.images ?? NO_IMAGES;
  const locale = options.locale ?? englishLocale();
  const story = post.story?.trim() || undefined;
  const time = formatTime(post.created_time, locale);
  // A story-only post has no message: its story is its whole text, and no empty paragraph follows it.
  const paragraphs = post.message === undefined ? [] : post.message.split(/\r?\n/);
  const long = splitLong(paragraphs);
  const first = post.attachments?.data.find((a): a is Attachment => a !== undefined);
  const view: PostView = {
    id: post.id,
    lines: (long ? long.head : paragraphs).map(linkify),
    isStory: post.message === undefined && story !== undefined,
    timeIso: time.iso,
    timeText: time.text,
    counts: [
      post.reactions?.summary.total_count
        ? locale.t('count.reactions', { count: post.reactions.summary.total_count })
        : '',
      post.comments?.summary.total_count
        ? locale.t('count.comments', { count: post.comments.summary.total_count })
        : '',
      post.shares?.count ? locale.t('count.shares', { count: post.shares.count }) : '',
    ].filter(Boolean),
  };
  if (long) view.more = long.rest.map(linkify);
  if (story) view.story = story;
  const permalink = httpHref(post.permalink_url);
  if (permalink) view.permalink = options.web ? options.web(permalink) : permalink;
  const media = first?.media?.image;
  if (first?.type === 'share') {
    const title = first.title?.trim() || linkDomain(first.url) || locale.t('post.sharedLink');
    const preview: LinkPreview = { title };
    const href = httpHref(first.url);
    if (href) preview.href = href;
    const domain = linkDomain(first.url);
    if (domain) preview.domain = domain;
    // Decorative: the title beside it names the link.
    const picture = image(media?.src ?? post.full_picture, media, '', true, images, PREVIEW_BOX);
    if (picture) preview.image = picture;
    view.preview = preview;
    return view;
  }
  const photos = first?.subattachments?.data.length ?? 0;
  const album = photos > 1;
  const title = first?.title?.trim();
  const alt = album
    ? title
      ? locale.t('post.albumAltTitled', { count: photos, title })
      : locale.t('post.albumAlt', { count: photos })
    : title
      ? locale.t('post.titledAlt', { title })
      : locale.t(first?.type === 'video' ? 'post.videoAlt' : 'post.photoAlt');
  const picture = image(post.full_picture ?? media?.src, media, alt, true, images, POST_BOX);
  if (picture) {
    view.picture = picture;
    if (album) view.extra = locale.t('post.morePhotos', { count: photos - 1 });
  }
  return view;
}

/**
 * `where`: the page view shows the first (newest) posts, `/feed` an older or newer page. The provider's first
 * page can carry `previous` too, so "Newer posts" is offered only away from the first page; "Older posts"
 * exactly when the provider sent `next`, even after an empty page (docs/provider-interface.md#feed-paging).
 * With `pageId`, our own links are made too, carrying the position (`offset`); "Newer posts" from the second
 * page goes to the page view.
 */
export function toFeedView(
  feed: FeedResponse,
  where: 'first' | 'older',
  options: ViewOptions & { pageId?: string } = {},
): FeedView {
  const cursors = feed.paging?.cursors;
  const offset = where === 'first' ? 0 : options.offset;
  const base = options.pageId === undefined ? undefined : `/pages/${encodeURIComponent(options.pageId)}`;
  const posts = feed.data.map((p) => {
    const view = toPostView(p, options);
    if (base !== undefined && p.id.startsWith(`${options.pageId}_`))
      view.href = `${base}/posts/${encodeURIComponent(p.id)}`;
    return view;
  });
  const view: FeedView = {
    posts,
    // A cursor alone does not mean there is more: the provider says so with next/previous.
    after: feed.paging?.next ? cursors?.after : undefined,
    before: where === 'older' && feed.paging?.previous ? cursors?.before : undefined,
    end: !feed.paging?.next && posts.length > 0,
  };
  if (offset !== undefined && posts.length > 0)
    view.position = (options.locale ?? englishLocale()).t('feed.position', {
      from: offset + 1,
      to: offset + posts.length,
    });
  if (base !== undefined && view.after !== undefined) {
    const at = offset === undefined ? '' : `&offset=${offset + posts.length}`;
    view.older = `${base}/feed?after=${encodeURIComponent(view.after)}${at}`;
  }
  if (base !== undefined && view.before !== undefined) {
    const newer = offset === undefined ? undefined : offset - FEED_PAGE_SIZE;
    view.newer =
      newer !== undefined && newer <= 0
        ? base
        : `${base}/feed?before=${encodeURIComponent(view.before)}${newer === undefined ? '' : `&offset=${newer}`}`;
  }
  return view;
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
