import { webUrl } from '../web-url';

/**
 * Which image URLs a view may show (docs/architecture.md#images): only those on an origin of
 * FB_IMAGE_ORIGINS, the same list the CSP's `img-src` allows, so that an image the view renders is
 * one the browser will load and a provider answer cannot make the page fetch from anywhere else.
 */

/** A test for URLs on the given origins; `https://*.host` matches any subdomain of host (not host itself), as in CSP. */
export function imageFilter(origins: readonly string[]): (url: string | undefined) => string | undefined {
  const exact = new Set<string>();
  const suffixes: { protocol: string; suffix: string; port: string }[] = [];
  for (const origin of origins) {
    const wild = /^(https?:)\/\/\*(\.[^:/]+)(?::(\d+))?$/.exec(origin);
    if (wild) suffixes.push({ protocol: wild[1]!, suffix: wild[2]!, port: wild[3] ?? '' });
    else exact.add(origin);
  }
  return (raw) => {
    if (raw === undefined) return undefined;
    const url = webUrl(raw);
    if (!url || url.username || url.password) return undefined;
    if (exact.has(url.origin)) return url.href;
    const host = url.hostname;
    const allowed = suffixes.some(
      (s) =>
        s.protocol === url.protocol && s.port === url.port && host.endsWith(s.suffix) && host.length > s.suffix.length,
    );
    return allowed ? url.href : undefined;
  };
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

export function image(
  src: string | undefined,
  size: { width?: number | undefined; height?: number | undefined } | undefined,
  alt: string,
  lazy: boolean,
  images: (url: string | undefined) => string | undefined,
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
