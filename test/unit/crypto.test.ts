import { createHmac } from 'node:crypto';
import { codeChallenge, randomToken } from '../../src/auth/pkce';
import { appSecretProof } from '../../src/graph/proof';
import { TokenSealer } from '../../src/session/sealer';
import { safeEqual } from '../../src/session/csrf';

describe('PKCE (RFC 7636)', () => {
  it('when given the RFC 7636 appendix B verifier, then the S256 challenge matches the RFC', () => {
    expect(codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
  it('when a verifier is made, then it has 43 unreserved characters and differs each time', () => {
    const a = randomToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(a);
  });
});

describe('appsecret_proof', () => {
  it('when computed, then it is the lowercase hex HMAC-SHA256 of the token keyed by the secret', () => {
    const expected = createHmac('sha256', 'secret').update('EAAtoken').digest('hex');
    expect(appSecretProof('EAAtoken', 'secret')).toBe(expected);
    expect(appSecretProof('EAAtoken', 'secret')).toMatch(/^[0-9a-f]{64}$/);
  });
});

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
    const flipped = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'B' : 'A') + sealed.slice(-1);
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
});

describe('safeEqual', () => {
  it('when strings differ in length or content, then false; equal, then true', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
