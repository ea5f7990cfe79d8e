/**
 * Pictures a Page uploaded (`POST /{page-id}/photos`, docs/reference.md#publishing), kept in memory and served
 * by the emulator's image host like the drawn ones: `/media/uploads/<n>.<ext>`, signed and expiring. Bounded in
 * count and bytes (the oldest go first) and cleared with the seed (`reset`, `loadSeed`).
 */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
const MAX_FILES = 64;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

export interface Picture {
  type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
  width: number;
  height: number;
}

const EXTENSIONS: Record<Picture['type'], string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

export const UPLOAD_PATH_RE = /^\/media\/uploads\/(\d{1,12})\.(jpg|png|gif|webp)$/;

export class Uploads {
  private readonly files = new Map<string, { type: string; data: Buffer }>();
  private bytes = 0;
  private sequence = 0;

  /** Keeps a picture; returns its path on the image host. */
  put(picture: Picture, data: Buffer): string {
    this.sequence += 1;
    const path = `/media/uploads/${this.sequence}.${EXTENSIONS[picture.type]}`;
    this.files.set(path, { type: picture.type, data });
    this.bytes += data.length;
    while (this.files.size > MAX_FILES || this.bytes > MAX_TOTAL_BYTES) {
      const [oldest, file] = this.files.entries().next().value!;
      this.files.delete(oldest);
      this.bytes -= file.data.length;
    }
    return path;
  }

  get(path: string): { type: string; data: Buffer } | undefined {
    return this.files.get(path);
  }

  clear(): void {
    this.files.clear();
    this.bytes = 0;
  }
}

/**
 * What the file is, read from its first bytes (never its name or declared type), with its size in pixels:
 * JPEG, PNG, GIF or WebP; anything else is not a picture (undefined).
 */
export function pictureOf(data: Buffer): Picture | undefined {
  if (data.length >= 24 && data.readUInt32BE(0) === 0x89504e47 && data.toString('ascii', 12, 16) === 'IHDR') {
    return { type: 'image/png', width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length >= 10 && data.toString('ascii', 0, 4) === 'GIF8') {
    return { type: 'image/gif', width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  }
  if (data.length >= 30 && data.toString('ascii', 0, 4) === 'RIFF' && data.toString('ascii', 8, 12) === 'WEBP') {
    return webpOf(data);
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) return jpegOf(data);
  return undefined;
}

function webpOf(data: Buffer): Picture | undefined {
  const chunk = data.toString('ascii', 12, 16);
  if (chunk === 'VP8X')
    return { type: 'image/webp', width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
  if (chunk === 'VP8 ' && data.length >= 30) {
    return { type: 'image/webp', width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L' && data.length >= 25) {
    const bits = data.readUInt32LE(21);
    return { type: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

/** A JPEG's size is in its first start-of-frame segment (SOF0–SOF15, but not DHT, JPG or DAC). */
function jpegOf(data: Buffer): Picture | undefined {
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1]!;
    const length = data.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { type: 'image/jpeg', width: data.readUInt16BE(at + 7), height: data.readUInt16BE(at + 5) };
    }
    at += 2 + length;
  }
  return undefined;
}
