/**
 * Where a person may be sent back to inside this app: after login (the page
 * they asked for when the login began) and by an error page's "Try again".
 * Only our own page routes qualify, as a path: anything else — another
 * origin, a scheme, backslashes, encoded slashes, control characters, an
 * over-long value — is refused, so no link can turn Pagelight into an open
 * redirect.
 */

/** Longer than any path the app links to (a page id and a feed cursor), short enough to keep in a session. */
export const MAX_RETURN_TO = 600;

/**
 * `/pages`, `/pages/<id>`, `/pages/<id>/feed`, `/pages/<id>/insights`, `/pages/<id>/posts/<id>_<n>`, with an
 * optional query of URL-safe characters.
 */
const OWN_ROUTE =
  /^\/pages(?:\/\d{1,32}(?:\/feed|\/insights|\/posts\/\d{1,32}_\d{1,32})?)?(?:\?[A-Za-z0-9._~%&=+-]*)?$/;
// Control characters are exactly what this must find (CR, LF, NUL…).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;

/** The same-origin path itself when it is one of our page routes, else undefined. */
export function ownPath(raw: unknown): string | undefined {
  return checkedPath(raw, OWN_ROUTE);
}

/** The site's own pages a signed-out person reads too: home, privacy, a deletion receipt. */
const SITE_ROUTE = /^\/(?:privacy|auth\/data-deletion\/[0-9a-f]{32})?$/;

/**
 * Where the language menu (src/http/language.ts) leads back to: any page the menu is shown on, by the same
 * checks as `ownPath`; anything else is no path.
 */
export function sitePath(raw: unknown): string | undefined {
  return ownPath(raw) ?? checkedPath(raw, SITE_ROUTE);
}

function checkedPath(raw: unknown, route: RegExp): string | undefined {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_RETURN_TO) return undefined;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || CONTROL.test(raw)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  // What a later decoding step (a proxy, a browser) might make of it must be as harmless.
  if (decoded.includes('//') || decoded.includes('\\') || CONTROL.test(decoded)) return undefined;
  if (!route.test(raw)) return undefined;
  const url = new URL(raw, 'http://pagelight.invalid');
  if (url.origin !== 'http://pagelight.invalid') return undefined;
  return `${url.pathname}${url.search}`;
}

/** The page id a return path names, when it names one. */
export function pageIdOf(path: string): string | undefined {
  return /^\/pages\/(\d{1,32})(?:[/?]|$)/.exec(path)?.[1];
}
