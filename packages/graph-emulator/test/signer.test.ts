import { createPublicKey, verify } from 'node:crypto';
import { IdTokenSigner } from '../src/oidc/signer';

const CLAIMS = { iss: 'http://provider.test', aud: '1', sub: '2', iat: 0, exp: 3600, jti: 'j' };

describe('the ID-token signing key', () => {
  it('when the key is being made, then the event loop keeps running: a setImmediate fires before the key is ready', async () => {
    const signer = new IdTokenSigner();
    const events: string[] = [];
    const ready = signer.ready().then(() => events.push('key ready'));
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        events.push('immediate');
        resolve();
      }),
    );
    await ready;
    expect(events).toEqual(['immediate', 'key ready']);
  });

  it('when several callers ask at once, then one key is made: every token names and verifies with the published key', async () => {
    const signer = new IdTokenSigner();
    const [jwks, a, b] = await Promise.all([signer.jwks(), signer.sign(CLAIMS), signer.sign(CLAIMS)]);
    expect(jwks.keys).toHaveLength(1);
    const key = jwks.keys[0]!;
    for (const token of [a, b]) {
      const [header, claims, signature] = token.split('.') as [string, string, string];
      expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'RS256', kid: key.kid });
      const publicKey = createPublicKey({ key, format: 'jwk' });
      expect(verify('sha256', Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(
        true,
      );
    }
  });
});

describe('the key across emulators', () => {
  it('when two emulators run in one process, then both publish the same key, as the provider serves one JWKS to every app', async () => {
    const [a, b] = await Promise.all([new IdTokenSigner().jwks(), new IdTokenSigner().jwks()]);
    expect(b.keys).toEqual(a.keys);
  });
});
