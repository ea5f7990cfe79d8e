/**
 * `GET /media/<scene>_<width>x<height>.svg?oh=…&oe=…`: the emulator's stand-in
 * for the provider's image CDN. Like the favicon it sits before logging,
 * latency and scripted failures: a browser loading pictures is not an API
 * call, and must not use up a failure a test scripted for the Graph API.
 */
import { Router, type Request, type Response } from 'express';
import type { Context } from '../context';
import { drawScene, MAX_SIDE } from './art';
import { UPLOAD_PATH_RE } from './uploads';

/** Scene names are lower-case words joined by dashes; anything else (dots, slashes, escapes) is not a picture. */
const MEDIA_PATH_RE = /^\/media\/([a-z][a-z0-9-]{0,40})_(\d{1,4})x(\d{1,4})\.(svg|webm)$/;
/**
 * A video's file (`media.source`): a WebM that holds only its header (EBML, DocType "webm") and no frames.
 * Enough for a `<video>` element to find a file of the right type behind the URL; the poster is what shows.
 */
const VIDEO = Buffer.from('1a45dfa39f4286810142f7810142f2810442f381084282847765626d4287810442858102', 'hex');
/** A browser keeps a picture at most this long, and never past its URL's expiry. */
const MAX_AGE_SEC = 14 * 86_400;
const CACHE_LIMIT = 256;

export function mediaRouter(ctx: Context): Router {
  const drawn = new Map<string, string>();
  const router = Router();
  router.use('/media', (req: Request, res: Response) => {
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Cross-Origin-Resource-Policy': 'cross-origin' });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.status(405).set('Allow', 'GET, HEAD').type('text/plain').send('Method not allowed');
      return;
    }
    const path = `/media${req.path}`;
    if (UPLOAD_PATH_RE.test(path)) return uploaded(ctx, path, req, res);
    const match = MEDIA_PATH_RE.exec(path);
    const width = Number(match?.[2]);
    const height = Number(match?.[3]);
    const video = match?.[4] === 'webm';
    const svg =
      match === null || !inRange(width) || !inRange(height)
        ? undefined
        : video
          ? ''
          : cached(drawn, path, () => drawScene(match[1]!, width, height));
    if (svg === undefined) {
      res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('Not found');
      return;
    }
    const maxAge = signedMaxAge(ctx, path, req, res);
    if (maxAge === undefined) return;
    if (video) {
      res.set({ 'Content-Type': 'video/webm', 'Cache-Control': maxAge }).send(VIDEO);
      return;
    }
    res.set({
      'Content-Type': 'image/svg+xml',
      'Cache-Control': maxAge,
      // Opened on its own, an SVG is a document: give it nothing to run.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
    res.send(svg);
  });
  return router;
}

/**
 * The `Cache-Control` of a signed URL that checks out; otherwise answers the CDN's 403 and gives undefined.
 */
function signedMaxAge(ctx: Context, path: string, req: Request, res: Response): string | undefined {
  const now = ctx.now();
  const check = ctx.media.check(path, req.query.oh, req.query.oe, now);
  if (check !== 'ok') {
    // The CDN's own words (reported by many apps whose stored picture URLs broke).
    res
      .status(403)
      .set('Cache-Control', 'no-store')
      .type('text/plain')
      .send(check === 'expired' ? 'URL signature expired' : 'URL signature mismatch');
    return undefined;
  }
  // Checked above: `oe` is upper-case hexadecimal.
  const left = Math.floor((parseInt(req.query.oe as string, 16) * 1000 - now) / 1000);
  return `public, max-age=${Math.max(0, Math.min(MAX_AGE_SEC, left))}`;
}

/** An uploaded picture (../media/uploads.ts), as sent, under the type its bytes showed. */
function uploaded(ctx: Context, path: string, req: Request, res: Response): void {
  const file = ctx.uploads.get(path);
  if (file === undefined) {
    res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('Not found');
    return;
  }
  const maxAge = signedMaxAge(ctx, path, req, res);
  if (maxAge === undefined) return;
  res.set({ 'Content-Type': file.type, 'Cache-Control': maxAge }).send(file.data);
}

function inRange(side: number): boolean {
  return Number.isInteger(side) && side >= 1 && side <= MAX_SIDE;
}

/** Drawing is cheap but not free; a seed names a few dozen pictures, so keep them (bounded against odd sizes). */
function cached(map: Map<string, string>, key: string, draw: () => string | undefined): string | undefined {
  const hit = map.get(key);
  if (hit !== undefined) return hit;
  const svg = draw();
  if (svg === undefined) return undefined;
  if (map.size >= CACHE_LIMIT) map.delete(map.keys().next().value!);
  map.set(key, svg);
  return svg;
}
