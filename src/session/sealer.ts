import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts access tokens before they go into the session store, so a dump of
 * the store (or of Redis) holds no usable token. AES-256-GCM with a random
 * 96-bit IV (NIST SP 800-38D); the key id in front lets old keys still
 * decrypt after a rotation. `binding`, when given, is GCM additional data:
 * the value opens only with the same binding, so a sealed token copied
 * under another session id is rejected (see ./sign-in).
 *
 * Every open deciphers: no plain token is kept between requests
 * (docs/performance.md, removed shortcuts).
 */
export class TokenSealer {
  private readonly keys: { id: string; key: Buffer }[];

  /** `secrets`: newest first. Each is stretched to a 256-bit key with HKDF. */
  constructor(secrets: readonly string[]) {
    if (secrets.length === 0) throw new Error('TokenSealer needs at least one key');
    this.keys = secrets.map((secret) => {
      const key = Buffer.from(hkdfSync('sha256', secret, 'pagelight', 'session-token-encryption', 32));
      return { id: createHash('sha256').update(key).digest('base64url').slice(0, 6), key };
    });
  }

  seal(plain: string, binding?: string): string {
    const { id, key } = this.keys[0]!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    if (binding !== undefined) cipher.setAAD(Buffer.from(binding, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${id}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The token, or undefined when the value was tampered with, the binding differs or no key opens it. */
  open(sealed: unknown, binding?: string): string | undefined {
    if (typeof sealed !== 'string') return undefined;
    const dot = sealed.indexOf('.');
    const entry = this.keys.find((k) => k.id === sealed.slice(0, dot));
    if (dot < 0 || !entry) return undefined;
    const raw = Buffer.from(sealed.slice(dot + 1), 'base64url');
    if (raw.length < 12 + 16 + 1) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', entry.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      if (binding !== undefined) decipher.setAAD(Buffer.from(binding, 'utf8'));
      return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
