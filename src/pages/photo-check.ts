/**
 * A photo for a post, checked before any provider call (docs/architecture.md#publishing): at most the provider's
 * size for a Page photo upload, and a picture by its first bytes — what the file is, never what its name or the
 * browser's declared type say.
 */

/**
 * Largest photo taken: the size the Page Photos reference gives for an upload (4 MB), which the emulator enforces
 * the same way (packages/graph-emulator/docs/reference.md#publishing).
 */
export const MAX_PHOTO_BYTES = 4 * 1024 * 1024;

export type PhotoType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/** The types taken, for the file input's `accept`: a hint to the browser; the bytes decide. */
export const PHOTO_TYPES: readonly PhotoType[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

const startsWith = (data: Buffer, bytes: readonly number[], at = 0) =>
  data.length >= at + bytes.length && bytes.every((b, i) => data[at + i] === b);

/**
 * The picture's type by its signature (JPEG `FF D8 FF`, PNG's eight bytes, `GIF87a`/`GIF89a`, `RIFF….WEBP`),
 * the signatures their specifications fix; undefined for anything else.
 */
export function photoType(data: Buffer): PhotoType | undefined {
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(data, [0x47, 0x49, 0x46, 0x38]) && (data[4] === 0x37 || data[4] === 0x39) && data[5] === 0x61)
    return 'image/gif';
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}
