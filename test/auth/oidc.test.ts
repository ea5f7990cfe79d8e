import { exportJWK, generateKeyPair, SignJWT, type JWK, type KeyLike } from 'jose';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { completeDialog } from '../support/dialog';
import { signIn, pathOf, startLogin } from '../support/flow';
import {
  agentFor,
  APP_ID,
  listen,
  startStack,
  type Agent,
  type Listening,
  type Stack,
  useStack,
} from '../support/stack';
import type { SignIn } from '../../src/session/types';
import { links } from '../support/dom';
import { visibleText } from '../support/words';

/**
 * PKCE as the provider documents it (docs/provider-interface.md#pkce): only in
 * its OIDC flow, where the code exchange also returns an id_token the app
 * verifies. The emulator's default `facebook` profile drops a challenge sent
 * without `openid` and refuses the verifier that follows.
 */

const OIDC_SCOPES = 'openid pages_show_list pages_read_engagement pages_read_user_content';
const NO_OIDC_SCOPES = 'pages_show_list pages_read_engagement pages_read_user_content';

/** The sign-ins stored in the stack's session store. */
async function signIns(stack: Stack): Promise<SignIn[]> {
  const all = await new Promise<Record<string, { signIn?: SignIn }>>((resolve, reject) =>
    stack.sessions.store.all!((err, sessions) =>
      err ? reject(err as Error) : resolve((sessions ?? {}) as Record<string, { signIn?: SignIn }>),
    ),
  );
  return Object.values(all).flatMap((s) => (s.signIn ? [s.signIn] : []));
}

function exchangeForm(stack: Stack): Record<string, string> | undefined {
  return stack.emulator.controls.log.find((e) => e.kind === 'token' && e.form.code !== undefined)?.form;
}

/** Calls made after the code exchange: the long-lived swap and /me/permissions. */
function callsAfterExchange(stack: Stack): number {
  return (
    stack.emulator.controls.calls({ path: 'me/permissions' }) +
    stack.emulator.controls.log.filter((e) => e.form.grant_type === 'fb_exchange_token').length
  );
}

describe('FB_PKCE off (the default with FB_APP_ID) against the provider', () => {
  const stack = useStack();

  it('when a person logs in, then no challenge, nonce or verifier is sent and the login works', async () => {
    const agent = agentFor(stack);
    const dialog = new URL(await startLogin(agent));
    expect(dialog.searchParams.has('code_challenge')).toBe(false);
    expect(dialog.searchParams.has('nonce')).toBe(false);
    const callback = await completeDialog(dialog.toString());
    await agent.get(pathOf(callback)).expect(303).expect('Location', '/pages');
    expect(exchangeForm(stack)).not.toHaveProperty('code_verifier');
    const [signIn] = await signIns(stack);
    expect(signIn).toBeDefined();
    // Without an id_token, who signed in comes from /me (read alongside the long-lived exchange).
    expect(signIn!.userId).toBe(SEED_IDS.users.ada);
    expect(stack.emulator.controls.log.filter((e) => /\/me$/.test(e.path)).length).toBeGreaterThanOrEqual(1);
  });
});

describe('FB_PKCE=on with openid in FB_SCOPES (the provider’s OIDC code flow)', () => {
  const stack = useStack({ env: { FB_PKCE: 'on', FB_SCOPES: OIDC_SCOPES } });
  beforeEach(() => stack.emulator.controls.reset());

  it('when a person logs in, then the dialog gets an S256 challenge and a nonce, the exchange the verifier, and the verified id_token names the person', async () => {
    const agent = agentFor(stack);
    const dialog = new URL(await startLogin(agent));
    const q = dialog.searchParams;
    expect(q.get('scope')).toBe(OIDC_SCOPES);
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('nonce')).not.toBe(q.get('state'));
    const callback = await completeDialog(dialog.toString(), { user: SEED_IDS.users.ada });
    await agent.get(pathOf(callback)).expect(303).expect('Location', '/pages');
    expect(exchangeForm(stack)?.code_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const mine = (await signIns(stack)).filter((c) => c.userId === SEED_IDS.users.ada);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine[0]!.userName).toBe('Ada Lovelace');
    // The verified id_token already says who signed in: no /me read.
    expect(stack.emulator.controls.log.filter((e) => /\/me$/.test(e.path))).toEqual([]);
    await agent.get('/pages').expect(200);
  });

  it('when the exchange brings no id_token, then the login fails with a plain page and nothing is stored or called', async () => {
    const agent = agentFor(stack);
    const before = (await signIns(stack)).length;
    const dialog = await startLogin(agent);
    stack.emulator.controls.failNext(1, {
      kind: 'http',
      status: 200,
      match: 'oauth/access_token',
      contentType: 'application/json',
      body: JSON.stringify({ access_token: 'EAAnotverified', token_type: 'bearer', expires_in: 3600 }),
    });
    const res = await agent.get(pathOf(await completeDialog(dialog))).expect(502);
    expect(res.text).toMatch(/We could not confirm with Facebook who you are/);
    expect(links(res.text).map((l) => l.href)).toContain('/auth/login');
    expect((await signIns(stack)).length).toBe(before);
    expect(callsAfterExchange(stack)).toBe(0);
    expect(stack.logs.text).toMatch(/"code":"id_token_invalid"/);
  });
});

describe('an id_token that does not verify is refused, with nothing stored', () => {
  /** A key the test controls, published at FB_JWKS_URL, so only one claim at a time is wrong. */
  let key: { privateKey: KeyLike; jwk: JWK };
  let jwks: Listening & { hits: () => number };
  let stack: Stack;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    key = { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid: 'test-key', alg: 'RS256' } };
    let hits = 0;
    const served = await listen((_req, res) => {
      hits++;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ keys: [key.jwk] }));
    });
    jwks = { ...served, hits: () => hits };
    stack = await startStack({
      env: { FB_PKCE: 'on', FB_SCOPES: OIDC_SCOPES, FB_JWKS_URL: `${served.url}/.well-known/oauth/openid/jwks/` },
    });
  });
  afterAll(async () => {
    await stack.close();
    await jwks.close();
  });
  beforeEach(() => stack.emulator.controls.reset());

  interface Claims {
    iss?: string;
    aud?: string;
    nonce?: string;
    exp?: number;
  }

  function sign(claims: Claims, signingKey = key.privateKey, kid = 'test-key'): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ nonce: claims.nonce, name: 'Ada Lovelace' })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(claims.iss ?? stack.emulator.url)
      .setAudience(claims.aud ?? APP_ID)
      .setSubject(SEED_IDS.users.ada)
      .setIssuedAt(now)
      .setExpirationTime(claims.exp ?? now + 3600)
      .sign(signingKey);
  }

  /** Starts a login, has the token endpoint answer with `idToken`, and returns the callback's answer. */
  async function loginWith(agent: Agent, idToken: (nonce: string) => Promise<string>) {
    const dialog = new URL(await startLogin(agent));
    const token = await idToken(dialog.searchParams.get('nonce')!);
    stack.emulator.controls.failNext(1, {
      kind: 'http',
      status: 200,
      match: 'oauth/access_token',
      contentType: 'application/json',
      body: JSON.stringify({ access_token: 'EAAfromthetest', token_type: 'bearer', expires_in: 3600, id_token: token }),
    });
    return agent.get(pathOf(await completeDialog(dialog.toString())));
  }

  it('when every claim is right, then the login succeeds, and the JWKS is fetched once for several logins', async () => {
    const hitsBefore = jwks.hits();
    for (let i = 0; i < 3; i++) {
      const res = await loginWith(agentFor(stack), (nonce) => sign({ nonce }));
      expect(res.status).toBe(303);
    }
    expect(jwks.hits() - hitsBefore).toBeLessThanOrEqual(1);
  });

  it.each<[string, (nonce: string) => Promise<string>]>([
    [
      'signed by another key under a known kid (forged)',
      async (nonce) => sign({ nonce }, (await generateKeyPair('RS256')).privateKey),
    ],
    [
      'signed by a key the JWKS does not list',
      async (nonce) => sign({ nonce }, (await generateKeyPair('RS256')).privateKey, 'other'),
    ],
    ['expired', (nonce) => sign({ nonce, exp: Math.floor(Date.now() / 1000) - 3600 })],
    ['for another login (wrong nonce)', () => sign({ nonce: 'someone-elses-nonce' })],
    ['for another app (wrong audience)', (nonce) => sign({ nonce, aud: '999999' })],
    ['from another issuer', (nonce) => sign({ nonce, iss: 'https://evil.example' })],
    ['not a JWT at all', () => Promise.resolve('not.a.jwt')],
  ])(
    'when the id_token is %s, then 502 with a plain page, no session is connected and no further call is made',
    async (_what, idToken) => {
      const before = (await signIns(stack)).length;
      const agent = agentFor(stack);
      const res = await loginWith(agent, idToken);
      expect(res.status).toBe(502);
      expect(res.text).toMatch(/We could not confirm with Facebook who you are/);
      expect(res.text).not.toMatch(/EAAfromthetest/);
      expect((await signIns(stack)).length).toBe(before);
      expect(callsAfterExchange(stack)).toBe(0);
      await agent.get('/pages').expect(401);
    },
  );
});

describe('FB_PKCE=on without openid against the provider (profile "facebook")', () => {
  const stack = useStack({ env: { FB_PKCE: 'on', FB_SCOPES: NO_OIDC_SCOPES } });

  it('when the token endpoint refuses the verifier, then the person reads plain words with Connect again, and the log names the fix', async () => {
    const agent = agentFor(stack);
    const res = await signIn(agent);
    expect(res.status).toBe(502);
    expect(visibleText(res.text)).toContain("We couldn't finish connecting");
    expect(res.text).toMatch(/This is a problem with the site’s setup, not with your account/);
    expect(res.text).not.toMatch(/code_verifier|code_challenge|PKCE|OIDC/);
    expect(links(res.text).map((l) => l.href)).toContain('/auth/login');
    expect(await signIns(stack)).toEqual([]);
    const fix = stack.logs.lines.find((l) => l.includes('FB_PKCE=off'));
    expect(fix).toBeDefined();
    expect(fix).toMatch(/add openid to FB_SCOPES/);
    expect(JSON.parse(fix!)).toMatchObject({ level: 'error', code: 1 });
  });
});

describe('FB_PKCE=on against a plain RFC 7636 stand-in (profile "strict-rfc")', () => {
  const stack = useStack({ profile: 'strict-rfc', env: { FB_PKCE: 'on', FB_SCOPES: NO_OIDC_SCOPES } });

  it('when a person logs in, then the verifier is checked against the challenge and the login works without an id_token', async () => {
    const agent = agentFor(stack);
    const res = await signIn(agent);
    expect(res.status).toBe(303);
    expect(exchangeForm(stack)?.code_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stack.emulator.controls.log.filter((e) => (e.status ?? 0) >= 400)).toEqual([]);
  });
});
