/**
 * A Page's profile picture: the `picture` field (ProfilePictureSource) and
 * the `/{page-id}/picture` edge (Page Picture reference), which by default
 * answers a 302 to the image and with `redirect=0` (or `false`) the same
 * `{data:{height,is_silhouette,url,width}}` as the field. The URL is a
 * signed CDN URL that expires (docs/specification.md#image-urls).
 */
import type { Response } from 'express';
import { badParam } from '../errors';
import { mediaPath } from '../media/sign';
import type { PageState } from '../store/data';
import type { Context } from '../context';
import { PICTURE_TYPES, type PictureType } from './fields';
import { mediaUrl } from './post';
import { sendJson } from '../respond';

/** Square sizes per `.type(…)`; without one the provider answers the 50×50 picture. */
const PICTURE_SIZES: Readonly<Record<PictureType, number>> = {
  small: 50,
  square: 50,
  album: 50,
  normal: 100,
  large: 200,
};

/** Every Page has a picture: its own, or the provider's silhouette (`is_silhouette: true`). */
export function pictureOf(ctx: Context, page: PageState, type: PictureType | undefined): Record<string, unknown> {
  return profilePicture(ctx, page.fields.get('picture'), type);
}

/** A profile picture (a Page's or a person's) from its scene name, or the silhouette without one. */
export function profilePicture(ctx: Context, scene: unknown, type: PictureType | undefined): Record<string, unknown> {
  const size = PICTURE_SIZES[type ?? 'square'];
  const own = typeof scene === 'string';
  const url = mediaUrl(ctx, mediaPath(own ? scene : 'silhouette', size));
  return { height: size, is_silhouette: !own, url, width: size };
}

/** `GET /{page-id}/picture[?type=large][&redirect=0]`. */
export function pictureEdge(ctx: Context, params: Record<string, string>, page: PageState, res: Response): void {
  const { type, redirect } = params;
  if (type !== undefined && !(PICTURE_TYPES as readonly string[]).includes(type)) {
    throw badParam(`type must be one of the following values: ${PICTURE_TYPES.join(', ')}`);
  }
  const data = pictureOf(ctx, page, type as PictureType | undefined);
  if (redirect === '0' || redirect === 'false') {
    sendJson(res, 200, { data });
    return;
  }
  res.redirect(302, String(data.url));
}
