/**
 * Signed, expiring image URLs, as the provider's CDN hands them out: every
 * URL carries `oh` (a hash of the path and the expiry) and `oe` (the expiry,
 * Unix seconds in hexadecimal). Past `oe` the CDN answers 403 "URL signature
 * expired"; an altered path or parameter, 403 "URL signature mismatch".
 * Apps that store a picture URL find it broken days later, so they must
 * show a fallback (docs/specification.md#image-urls).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const DAY_MS = 86_400_000;
/** How long a URL stays good, counted from the start of the day it was handed out. */
export const MEDIA_URL_LIFETIME_MS = 3 * DAY_MS;

export type MediaCheck = 'ok' | 'expired' | 'mismatch';

export class MediaSigner {
  /** Per emulator: URLs from another emulator (or a restarted one) no longer match. */
  private readonly key = randomBytes(32);

  /**
   * `path` with `oh` and `oe`. The expiry is whole days ahead, so the URLs an
   * answer holds are the same all day (a cache that compares answers sees no
   * change); `expired` hands out one that expired at the start of yesterday, the same all day too (counted from
   * the second, two answers a second apart differed and a cache comparing them saw a change).
   */
  sign(path: string, now: number, expired = false): string {
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    const expiry = expired ? today - DAY_MS : today + MEDIA_URL_LIFETIME_MS;
    const oe = Math.floor(expiry / 1000)
      .toString(16)
      .toUpperCase();
    return `${path}?oh=${this.hash(path, oe)}&oe=${oe}`;
  }

  /** Mismatch first: an expiry is believed only once the hash proves nobody changed it. */
  check(path: string, oh: unknown, oe: unknown, now: number): MediaCheck {
    if (typeof oh !== 'string' || typeof oe !== 'string' || !/^[0-9A-F]{1,12}$/.test(oe)) return 'mismatch';
    const want = Buffer.from(this.hash(path, oe));
    const got = Buffer.from(oh);
    if (got.length !== want.length || !timingSafeEqual(got, want)) return 'mismatch';
    return parseInt(oe, 16) * 1000 <= now ? 'expired' : 'ok';
  }

  private hash(path: string, oe: string): string {
    return `00_${createHmac('sha256', this.key).update(`${path}\n${oe}`).digest('base64url').slice(0, 43)}`;
  }
}

/** The path of a scene at a size, as the seed names pictures (signed when a Graph answer hands it out). */
export function mediaPath(scene: string, width: number, height = width): string {
  return `/media/${scene}_${width}x${height}.svg`;
}

/** The path of a video of `scene` (its file; the poster is `mediaPath` of the same scene). */
export function videoPath(scene: string, width: number, height: number): string {
  return `/media/${scene}_${width}x${height}.webm`;
}
