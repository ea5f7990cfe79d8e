import { parse as parseCookies, serialize } from 'cookie';
import { Router, type Request, type RequestHandler } from 'express';
import { BadRequestError } from '../errors';
import type { Locales } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';
import { DEFAULT_TAG, LANGUAGES, localeTagOf, negotiatedPart, offeredTags, type LocaleTag } from '../i18n/locales';
import { z } from 'zod';
import { parseInput, queryParam } from './params';
import { sitePath } from './return-to';

/** `GET /language`: the language chosen, and the page it was chosen on (kept only when it is one of ours). */
const languageInput = z.object({
  query: z.object({ lang: queryParam(16).optional(), returnTo: queryParam(700).optional() }),
});

/** The cookie that remembers the language chosen in the menu: no session needed, so it works signed out. */
export const LANGUAGE_COOKIE = 'lang';
const A_YEAR_SEC = 365 * 24 * 3600;
/** Accept-Language values whose outcome is kept: far more than the browsers one site sees send. */
const MAX_NEGOTIATED = 1000;
/** Menus kept, by language and address: the addresses of the Pages and posts in view, with room. */
const MAX_MENUS = 1000;

/** A link of the footer's language menu. */
export interface LanguageLink {
  tag: string;
  name: string;
  href: string;
  current: boolean;
}

/**
 * Decides the request's language once: the menu's cookie, else the browser's
 * `Accept-Language` (its first entries; q-values and fallbacks by Express's negotiator), else English. The Locale goes to the
 * views as `res.locals.locale` (with `t` and `html`), and below the routes as a value; the answer says its
 * language and that it varies by both inputs.
 */
export function chooseLocale(locales: Locales): RequestHandler {
  const localeOf = languageOf(locales);
  const menuFor = menus();
  return (req, res, next) => {
    const locale = localeOf(req);
    res.locals.locale = locale;
    res.locals.t = locale.t;
    res.locals.html = locale.html;
    res.locals.languages = () => menuFor(locale, req.originalUrl);
    res.setHeader('Content-Language', locale.tag);
    res.vary('Accept-Language');
    res.vary('Cookie');
    next();
  };
}

/** The one decision of a request's language, for `chooseLocale` and for a refusal answered in front of it (./refusal.ts). */
export function languageOf(locales: Locales): (req: Request) => Locale {
  const offered = offeredTags(locales.pseudo);
  // Each Accept-Language value's outcome, negotiated once: browsers send a few values, the same on every request
  // (docs/performance.md#shortcuts-and-the-rows-they-pay-for). Bounded: past it, forgotten and negotiated again.
  const negotiatedFor = new Map<string, LocaleTag | undefined>();
  const negotiate = (req: Request, accept: string): LocaleTag | undefined => {
    // Only the part that counts, a few entries: what Express's negotiator reads (from the request) and the key.
    const part = negotiatedPart(accept);
    if (negotiatedFor.has(part)) return negotiatedFor.get(part);
    req.headers['accept-language'] = part;
    const negotiated = req.acceptsLanguages(offered);
    const tag = localeTagOf(negotiated === false ? undefined : negotiated, locales.pseudo);
    if (negotiatedFor.size >= MAX_NEGOTIATED) negotiatedFor.clear();
    negotiatedFor.set(part, tag);
    return tag;
  };
  return (req) => {
    const cookies = req.headers.cookie;
    const chosen = cookies?.includes(`${LANGUAGE_COOKIE}=`) ? parseCookies(cookies)[LANGUAGE_COOKIE] : undefined;
    const accept = req.headers['accept-language'];
    const tag =
      localeTagOf(chosen, locales.pseudo) ?? (accept === undefined ? undefined : negotiate(req, accept)) ?? DEFAULT_TAG;
    return locales.get(tag);
  };
}

/**
 * The footer's menu for a language and the address it is shown on, made once and kept (at most MAX_MENUS, cleared
 * when full): the same few addresses are viewed again and again, and checking the way back (`sitePath`) and
 * making the links was about 5 % of a warm page view (docs/performance.md#shortcuts-and-the-rows-they-pay-for).
 */
function menus(): (locale: Locale, url: string) => readonly LanguageLink[] {
  const made = new Map<string, readonly LanguageLink[]>();
  return (locale, url) => {
    const key = `${locale.tag} ${url}`;
    const known = made.get(key);
    if (known !== undefined) return known;
    const links = menu(locale, sitePath(url) ?? '/');
    if (made.size >= MAX_MENUS) made.clear();
    made.set(key, links);
    return links;
  };
}

function menu(locale: Locale, here: string): LanguageLink[] {
  const back = encodeURIComponent(here);
  return LANGUAGES.map(({ tag, name }) => ({
    tag,
    name,
    href: `/language?lang=${tag}&returnTo=${back}`,
    current: tag === locale.tag,
  }));
}

/**
 * `GET /language?lang=de&returnTo=/pages/1`: the footer's menu, links that work without script. Remembers the
 * choice in a cookie (SameSite=Lax, a year) and goes back to the page it was chosen on, when that is one of
 * ours (src/http/return-to.ts); else home.
 */
export function languageRoutes(locales: Locales, servedOverHttps: boolean): Router {
  const router = Router();
  router.get('/language', (req, res) => {
    const { lang, returnTo } = parseInput(languageInput, { params: req.params, query: req.query }).query;
    const tag = localeTagOf(lang, locales.pseudo);
    if (tag === undefined) throw new BadRequestError({ key: 'error.language.unknown' });
    const back = sitePath(returnTo) ?? '/';
    res.append(
      'Set-Cookie',
      serialize(LANGUAGE_COOKIE, tag, {
        path: '/',
        maxAge: A_YEAR_SEC,
        sameSite: 'lax',
        httpOnly: true,
        secure: servedOverHttps,
      }),
    );
    res.redirect(303, back);
  });
  return router;
}

/** The footer's menu returning to `here`: what a page that names no path of its own shows (src/http/errors.ts). */
export { menu as languageMenu };
