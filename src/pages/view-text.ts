import { LRUCache } from 'lru-cache';
import { englishLocale } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';
import { PROVIDER_WEB_ORIGIN } from '../graph/provider';
import { webUrl } from '../web-url';

/**
 * What every view model shares (docs/architecture.md#views): the options shaping it, and the helpers for the
 * provider's text, times and links. Provider data is untrusted text throughout: only http(s) URLs become links,
 * and a link reads as the address it goes to.
 */

/** A run of text, or a link whose text is the address it goes to. */
export interface Segment {
  text: string;
  href?: string;
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

/**
 * "2026-10-01T12:00:00+0000" → "1 Oct 2026, 12:00 UTC" in the page's language, and the ISO form for
 * `<time datetime>`. The formatter is the Locale's, made once. A cold view formats 25 of these, mostly the same
 * posts as the view before it, and the parse and Intl's `format` took 1.8 µs each: so each language's recent
 * ones are kept, by the provider's text:
 * docs/performance.md#the-cold-page-view-a-second-pass-2026-11-27-23300030-utc.
 */
export function formatTime(created: string, locale: Locale = englishLocale()): PostTime {
  const key = `${locale.tag} ${created}`;
  let time = recentTimes.get(key);
  if (time === undefined) {
    const date = new Date(providerTime(created));
    time = Number.isNaN(date.getTime())
      ? { text: locale.t('post.unknownTime') }
      : { iso: date.toISOString(), text: locale.dateTime(date) };
    recentTimes.set(key, time);
  }
  return time;
}

/** A time as a post shows it: its words, and its ISO form when the provider's text was a time. */
export interface PostTime {
  readonly iso?: string;
  readonly text: string;
}

/** The times `formatTime` wrote lately, by language and the provider's text: a few feeds' worth. */
const recentTimes = new LRUCache<string, PostTime>({ max: 2_000 });

/**
 * A time as the provider writes it ("2026-10-01T12:00:00+0000": an offset without a colon, which Date.parse does
 * not read everywhere) as epoch ms; NaN when it is none.
 */
export function providerTime(text: string): number {
  return Date.parse(text.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
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
  return raw ? webUrl(raw.trim())?.href : undefined;
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

/** The shown domain of a link: the provider may wrap it in its redirector (`l.facebook.com/l.php?u=…`). */
export function linkDomain(raw: string | undefined): string | undefined {
  const href = httpHref(raw);
  if (!href) return undefined;
  const url = new URL(href);
  const wrapped = url.hostname === 'l.facebook.com' ? httpHref(url.searchParams.get('u') ?? undefined) : undefined;
  return new URL(wrapped ?? href).hostname.replace(/^www\./, '') || undefined;
}
