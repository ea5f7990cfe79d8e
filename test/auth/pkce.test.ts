import { codeChallenge, randomToken } from '../../src/auth/pkce';

describe('PKCE (RFC 7636)', () => {
  it('when given the RFC 7636 appendix B verifier, then the S256 challenge matches the RFC', () => {
    expect(codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });
  it('when a verifier is made, then it has 43 unreserved characters and differs each time', () => {
    const a = randomToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(a);
  });
});
