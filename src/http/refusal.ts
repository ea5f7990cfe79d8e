import type { OutgoingHttpHeaders } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { Locales } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';
import type { Logger } from '../log/logger';
import { requestIdOf } from '../log/request-log';
import { routeTemplateOf } from '../log/route-template';
import { waitWords } from '../words';
import type { ErrorPage } from './errors';
import { languageMenu, languageOf } from './language';

/**
 * Answers a request of a session over its requests a minute, given the seconds until it may ask again and how
 * many of its requests this minute were refused, this one included.
 */
export type Refuse = (req: Request, res: Response, retryAfterSec: number, refused: number) => void;

export interface RefusalOptions {
  /** The security headers of every page (the app's helmet): taken once, as they are the same for every answer. */
  securityHeaders: RequestHandler;
  locales: Locales;
  logger: Logger;
  /** LOG_REQUESTS: `off` writes no line for refusals either. */
  logRequests: 'all' | 'errors' | 'off';
  trustRequestId: boolean;
}

/**
 * The refusals of a burst, answered in front of the stack (docs/operations.md#a-burst-of-refusals): mounted
 * before helmet, the access log, the language middleware and the session, a refusal costs its count and a
 * write of precomputed bytes, so a burst of them costs the other people next to nothing.
 *
 * - The page is the error page of `too_many_requests`, rendered once per language and wait as said, kept as bytes.
 *   It names no path ("Try again" is an empty link, this same address; the language menu returns home), so it
 *   serves anyone.
 * - Its headers are every page's (the security headers, `no-store`, the language and what it varies by), taken once.
 * - The metrics count it as any request (src/observe/requests.ts runs before). The log does not get a line per
 *   refusal, which a burst would turn into a flood: it gets the 1st, 10th, 100th… refusal of a session's minute,
 *   each saying how many were refused so far. No error is made (no stack to capture).
 */
export function refusalInFront(options: RefusalOptions): Refuse {
  const { logger, logRequests, trustRequestId } = options;
  const localeOf = languageOf(options.locales);
  const pageHeaders: OutgoingHttpHeaders = {
    ...headersSetBy(options.securityHeaders),
    'cache-control': 'no-store',
    'content-type': 'text/html; charset=utf-8',
    vary: 'Accept-Language, Cookie',
  };
  // The seven languages (and the pseudo-locale) times the few ways a wait is said.
  const pages = new LRUCache<string, Buffer>({ max: 100 });
  // The wait as said, by language and seconds: formatting a message costs more than the rest of a refusal.
  const waits = new LRUCache<string, string>({ max: 1000 });
  return (req, res, retryAfterSec, refused) => {
    const locale = localeOf(req);
    const seconds = Math.max(1, Math.ceil(retryAfterSec));
    const id = requestIdOf(req, trustRequestId);
    if (logRequests !== 'off' && isSampled(refused))
      logger.info(
        { requestId: id, method: req.method, route: routeTemplateOf(req), status: 429, client: req.ip, refused },
        'requests refused',
      );
    const send = (page: Buffer) =>
      res
        .writeHead(429, {
          ...pageHeaders,
          'content-language': locale.tag,
          'content-length': page.length,
          'retry-after': String(seconds),
          'x-request-id': id,
        })
        .end(page);
    // Keyed by the wait as said ("a few seconds", "1 minute"), not the seconds: two pages per language for a
    // minute's limit, rendered once, where a key per second rendered one more page every second of a burst.
    const waitKey = `${locale.tag} ${seconds}`;
    let wait = waits.get(waitKey);
    if (wait === undefined) waits.set(waitKey, (wait = waitWords(locale, seconds)));
    const key = `${locale.tag} ${wait}`;
    const page = pages.get(key);
    if (page !== undefined) {
      send(page);
      return;
    }
    res.app.render('error', refusalPage(locale, wait), (err, html) => {
      if (err) {
        // The view failed to render: a plain answer still says when to retry.
        res.status(429).setHeader('Retry-After', String(seconds));
        res.type('text').send('Too many requests\n');
        return;
      }
      const bytes = Buffer.from(html);
      pages.set(key, bytes);
      send(bytes);
    });
  };
}

/** What the error view is given for a refusal: what `chooseLocale` would have set, and the page of `too_many_requests`. */
function refusalPage(locale: Locale, wait: string): object {
  const title = locale.t('error.too_many_requests.title');
  const error: ErrorPage = {
    status: 429,
    title,
    message: locale.t('error.too_many_requests.text', { wait }),
    theirs: { title: false, message: false },
    actions: [{ href: '', label: locale.t('error.action.retry') }],
    headers: {},
    details: { status: 429, code: 'too_many_requests' },
  };
  return {
    title,
    error,
    locale,
    t: locale.t,
    html: locale.html,
    languages: () => languageMenu(locale, '/'),
  };
}

/** The 1st refusal, then the 10th, 100th, 1,000th…: a burst of n refusals writes about log10(n) lines. */
function isSampled(refused: number): boolean {
  let n = refused;
  while (n >= 10 && n % 10 === 0) n /= 10;
  return n === 1;
}

/** The headers `middleware` sets on every response, taken once from a stand-in response. */
function headersSetBy(middleware: RequestHandler): Record<string, string> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
  let called = false;
  middleware({ headers: {} } as Request, res as unknown as Response, () => (called = true));
  // helmet sets its headers and calls next at once; anything else would not be the same for every answer.
  if (!called) throw new Error('the security headers middleware did not finish synchronously');
  return Object.fromEntries(headers);
}
