import { TokenSealer } from '../../src/session/sealer';

/**
 * Another character second from the end (always a whole 6 bits of the value, unlike the last). It was once
 * chosen by the *last* character, which left the value unchanged whenever the one before was already 'A'.
 */
function tamper(sealed: string): string {
  const at = sealed.length - 2;
  return sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
}

describe('TokenSealer (tokens at rest)', () => {
  const key = 'k'.repeat(32);
  it('when a token is sealed, then the sealed value does not contain it and opens back to it', () => {
    const sealer = new TokenSealer([key]);
    const sealed = sealer.seal('EAAsecret-token-value');
    expect(sealed).not.toContain('EAAsecret');
    expect(sealer.open(sealed)).toBe('EAAsecret-token-value');
    expect(sealer.seal('same')).not.toBe(sealer.seal('same'));
  });
  it('when the sealed value is tampered with, then it does not open', () => {
    const sealer = new TokenSealer([key]);
    const sealed = sealer.seal('EAAtoken');
    const flipped = tamper(sealed);
    expect(sealer.open(flipped)).toBeUndefined();
    expect(sealer.open('garbage')).toBeUndefined();
    expect(sealer.open(42)).toBeUndefined();
  });
  it('when keys rotate, then values sealed with an old key still open and new ones use the new key', () => {
    const old = new TokenSealer([key]);
    const sealedOld = old.seal('EAAold');
    const rotated = new TokenSealer(['n'.repeat(32), key]);
    expect(rotated.open(sealedOld)).toBe('EAAold');
    expect(old.open(rotated.seal('EAAnew'))).toBeUndefined();
  });
  it('when the key is retired, then old values read as nothing', () => {
    const sealed = new TokenSealer([key]).seal('EAAold');
    expect(new TokenSealer(['n'.repeat(32)]).open(sealed)).toBeUndefined();
  });
  it('when a value opened before comes again, then it opens only with the same binding, and a tampered copy still does not', () => {
    const sealer = new TokenSealer([key]);
    const sealed = sealer.seal('EAAtoken', 'session:a');
    expect(sealer.open(sealed, 'session:a')).toBe('EAAtoken');
    expect(sealer.open(sealed, 'session:a')).toBe('EAAtoken');
    expect(sealer.open(sealed, 'session:b')).toBeUndefined();
    expect(sealer.open(sealed)).toBeUndefined();
    const flipped = tamper(sealed);
    expect(sealer.open(flipped, 'session:a')).toBeUndefined();
    expect(sealer.open(sealed, 'session:a')).toBe('EAAtoken');
  });
});
