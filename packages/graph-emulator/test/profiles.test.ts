import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import request from 'supertest';
import { loadProviderEnv } from '../src/env';
import {
  CLIENT,
  DEFAULT_SCOPE,
  USERS,
  codeFor,
  exchange,
  graphError,
  makeEmulator,
  pkcePair,
  runDialog,
} from './helpers';
import { attr, findAll } from './dom';

const OIDC_SCOPE = `openid ${DEFAULT_SCOPE}`;

interface Jwt {
  header: { alg: string; kid: string; typ?: string };
  claims: Record<string, unknown>;
  signed: Buffer;
  signature: Buffer;
}

function decode(jwt: string): Jwt {
  const [h, p, s] = jwt.split('.');
  const part = (x: string | undefined) => JSON.parse(Buffer.from(x ?? '', 'base64url').toString('utf8')) as unknown;
  return {
    header: part(h) as Jwt['header'],
    claims: part(p) as Record<string, unknown>,
    signed: Buffer.from(`${h}.${p}`),
    signature: Buffer.from(s ?? '', 'base64url'),
  };
}

describe('profile "facebook" (the default): PKCE as the provider documents it', () => {
  it('when the scope has no openid, then the dialog drops the challenge and the code exchanges without a verifier', async () => {
    const { app } = makeEmulator();
    const code = await codeFor(app, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
    const res = await exchange(app, code).expect(200);
    expect(res.body).not.toHaveProperty('id_token');
  });

  it('when a verifier is sent for a code issued without a challenge, then 400 with the reported error code 1, without is_transient, as captured from the provider', async () => {
    const { app } = makeEmulator();
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(app, { code_challenge: challenge, code_challenge_method: 'S256' });
    const res = await exchange(app, code, { code_verifier: verifier }).expect(400);
    expect(res.body).toEqual({
      error: {
        message: 'code_verifier param is provided without a code_challenge in authorization request',
        type: 'OAuthException',
        code: 1,
        fbtrace_id: expect.stringMatching(/^[A-Za-z0-9]{11}$/) as unknown,
      },
    });
  });

  it('when the scope has openid, then PKCE is honoured: a wrong verifier is refused, the right one exchanged', async () => {
    const { app } = makeEmulator();
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(app, { scope: OIDC_SCOPE, code_challenge: challenge, code_challenge_method: 'S256' });
    const wrong = await exchange(app, code, { code_verifier: pkcePair().verifier }).expect(400);
    expect(graphError(wrong.body)).toMatchObject({ code: 100, message: 'Invalid code_verifier.' });
    await exchange(app, code).expect(400);
    await exchange(app, code, { code_verifier: verifier }).expect(200);
  });

  it('when the scope has openid, then the exchange returns an RS256 id_token with the documented claims, signed by a key of the JWKS', async () => {
    const { app, clock } = makeEmulator({ publicUrl: 'http://provider.test' });
    const { verifier, challenge } = pkcePair();
    const location = await runDialog(
      app,
      { scope: OIDC_SCOPE, code_challenge: challenge, code_challenge_method: 'S256', nonce: 'the-nonce-1' },
      { user: USERS.ada },
    );
    const code = new URL(location).searchParams.get('code')!;
    const res = await exchange(app, code, { code_verifier: verifier }).expect(200);
    const body = res.body as { access_token: string; id_token: string };
    const jwt = decode(body.id_token);
    expect(jwt.header).toMatchObject({ alg: 'RS256', typ: 'JWT', kid: expect.any(String) as unknown });
    const now = Math.floor(clock.t / 1000);
    expect(jwt.claims).toMatchObject({
      iss: 'http://provider.test',
      aud: CLIENT.clientId,
      sub: USERS.ada,
      iat: now,
      exp: now + 3600,
      nonce: 'the-nonce-1',
      name: 'Ada Lovelace',
      jti: expect.any(String) as unknown,
    });

    const jwks = await request(app).get('/.well-known/oauth/openid/jwks/').expect(200);
    const keys = (jwks.body as { keys: (JsonWebKey & { kid: string; alg: string; use: string })[] }).keys;
    const key = keys.find((k) => k.kid === jwt.header.kid)!;
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(key).not.toHaveProperty('d');
    expect(verify('sha256', jwt.signed, createPublicKey({ key, format: 'jwk' }), jwt.signature)).toBe(true);
  });

  it('when the dialog is asked for openid, then it is not offered as a permission to uncheck, and the grant lists it', async () => {
    const { app } = makeEmulator();
    const page = await request(app)
      .get('/v23.0/dialog/oauth')
      .query({ client_id: CLIENT.clientId, redirect_uri: CLIENT.redirectUri, scope: OIDC_SCOPE, response_type: 'code' })
      .expect(200);
    expect(findAll(page.text, (n) => attr(n, 'value') === 'openid')).toEqual([]);
    const location = await runDialog(app, { scope: OIDC_SCOPE }, { perms: ['pages_show_list'] });
    const code = new URL(location).searchParams.get('code')!;
    const res = await exchange(app, code).expect(200);
    expect(res.body).toHaveProperty('id_token');
  });

  it('when the discovery document is read, then it names the issuer and the JWKS on the emulator’s own origin', async () => {
    const { app } = makeEmulator({ publicUrl: 'http://provider.test' });
    const res = await request(app).get('/.well-known/openid-configuration/').expect(200);
    expect(res.body).toMatchObject({
      issuer: 'http://provider.test',
      jwks_uri: 'http://provider.test/.well-known/oauth/openid/jwks/',
    });
  });
});

describe('profile "strict-rfc": plain RFC 7636', () => {
  it('when a challenge is sent without openid, then it is kept and the verifier checked', async () => {
    const { app } = makeEmulator({ profile: 'strict-rfc' });
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(app, { code_challenge: challenge, code_challenge_method: 'S256' });
    await exchange(app, code, { code_verifier: pkcePair().verifier }).expect(400);
    const res = await exchange(app, code, { code_verifier: verifier }).expect(200);
    expect(res.body).not.toHaveProperty('id_token');
  });

  it('when a verifier comes for a code without a challenge, then code 100 (RFC 9700 §4.8.2), not the provider’s code 1', async () => {
    const { app } = makeEmulator({ profile: 'strict-rfc' });
    const code = await codeFor(app);
    const res = await exchange(app, code, { code_verifier: pkcePair().verifier }).expect(400);
    expect(graphError(res.body).code).toBe(100);
  });
});

describe('choosing the profile', () => {
  it('when an unknown profile is given in process, then createEmulator throws naming the option', () => {
    expect(() => makeEmulator({ profile: 'lenient' as never })).toThrow(/profile must be one of facebook, strict-rfc/);
  });

  it('when EMULATOR_PROFILE is set, then npm run provider uses it, and a bad value is one line naming it', () => {
    expect(loadProviderEnv({}).profile).toBe('facebook');
    expect(loadProviderEnv({ EMULATOR_PROFILE: 'strict-rfc' }).profile).toBe('strict-rfc');
    expect(() => loadProviderEnv({ EMULATOR_PROFILE: 'rfc' })).toThrow(
      'EMULATOR_PROFILE must be one of facebook, strict-rfc, got "rfc"',
    );
  });
});
