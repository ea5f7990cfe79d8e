import { createHash } from 'node:crypto';
import { codeFor, exchange, graphError, makeEmulator, pkcePair } from './helpers';

// The plain RFC 7636 behaviour; the provider's own is in profiles.test.ts.
describe('PKCE (RFC 7636) at the token endpoint, profile "strict-rfc"', () => {
  it('when the S256 verifier matches the dialog challenge, then the code is exchanged', async () => {
    const { app } = makeEmulator({ profile: 'strict-rfc' });
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(app, { code_challenge: challenge, code_challenge_method: 'S256' });
    await exchange(app, code, { code_verifier: verifier }).expect(200);
  });

  it('when the verifier does not match, then 100 "Invalid code_verifier." and the code stays usable with the right one', async () => {
    const { app } = makeEmulator({ profile: 'strict-rfc' });
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(app, { code_challenge: challenge, code_challenge_method: 'S256' });
    const res = await exchange(app, code, { code_verifier: pkcePair().verifier }).expect(400);
    expect(graphError(res.body)).toMatchObject({ code: 100, message: 'Invalid code_verifier.' });
    await exchange(app, code, { code_verifier: verifier }).expect(200);
  });

  it('when a challenge was sent but no verifier is, then 100 "Missing code_verifier parameter."', async () => {
    const { app } = makeEmulator({ profile: 'strict-rfc' });
    const code = await codeFor(app, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
    const res = await exchange(app, code).expect(400);
    expect(graphError(res.body).message).toBe('Missing code_verifier parameter.');
  });

  it('when the S256 challenge itself is sent as the verifier, then it is refused (no plain downgrade)', async () => {
    const { app } = makeEmulator({ profile: 'strict-rfc' });
    const { challenge } = pkcePair();
    const code = await codeFor(app, { code_challenge: challenge, code_challenge_method: 'S256' });
    await exchange(app, code, { code_verifier: challenge }).expect(400);
  });

  it('when the method is plain (or absent, RFC 7636 §4.3), then the verifier must equal the challenge', async () => {
    const { app } = makeEmulator({ profile: 'strict-rfc' });
    const verifier = 'v'.repeat(50);
    const plain = await codeFor(app, { code_challenge: verifier, code_challenge_method: 'plain' });
    await exchange(app, plain, { code_verifier: verifier }).expect(200);
    const implicit = await codeFor(app, { code_challenge: verifier });
    await exchange(app, implicit, { code_verifier: 'w'.repeat(50) }).expect(400);
    await exchange(app, implicit, { code_verifier: verifier }).expect(200);
  });

  it('when a verifier is sent for a code obtained without a challenge, then it is refused (RFC 9700 §4.8.2)', async () => {
    const { app } = makeEmulator({ profile: 'strict-rfc' });
    const code = await codeFor(app);
    const res = await exchange(app, code, { code_verifier: 'x'.repeat(43) }).expect(400);
    expect(graphError(res.body).code).toBe(100);
  });

  it('when the verifier has characters outside RFC 7636 §4.1, then it is refused even if its hash matches', async () => {
    const { app } = makeEmulator({ profile: 'strict-rfc' });
    const verifier = `${'a'.repeat(42)} `;
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const code = await codeFor(app, { code_challenge: challenge, code_challenge_method: 'S256' });
    await exchange(app, code, { code_verifier: verifier }).expect(400);
  });
});
