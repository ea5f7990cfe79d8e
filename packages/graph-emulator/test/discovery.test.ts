/**
 * The OIDC discovery document (`/.well-known/openid-configuration`) advertises exactly what the dialog
 * accepts: every advertised value is accepted, and every candidate the dialog accepts is advertised, so
 * an OIDC client that picks from it is never sent to an error page (docs/specification.md#login-dialog).
 */
import request from 'supertest';
import { CLIENT, codeFor, exchange, makeEmulator, openDialog, pkcePair } from './helpers';

interface Discovery {
  authorization_endpoint: string;
  response_types_supported: string[];
  response_modes_supported: string[];
  code_challenge_methods_supported: string[];
  scopes_supported: string[];
  claims_supported: string[];
  id_token_signing_alg_values_supported: string[];
}

const emulator = makeEmulator({ publicUrl: 'http://provider.test' });
const { app } = emulator;
let discovery: Discovery;
beforeAll(async () => {
  discovery = (await request(app).get('/.well-known/openid-configuration').expect(200)).body as Discovery;
});

/** Whether the dialog opens (200) or refuses with its error page (400) for `params`. */
async function accepts(params: Record<string, string>): Promise<boolean> {
  const res = await openDialog(app, params);
  if (res.status !== 200 && res.status !== 400) throw new Error(`dialog answered ${res.status}`);
  return res.status === 200;
}

/** Every space-separated combination of `words`, each word once, in the order given. */
function combinations(words: readonly string[]): string[] {
  return words.reduce<string[][]>((all, w) => [...all, ...all.map((c) => [...c, w]), [w]], []).map((c) => c.join(' '));
}

describe('GET /.well-known/openid-configuration', () => {
  it('when a response_type is advertised, then the dialog accepts it; when the dialog accepts one, then it is advertised', async () => {
    const candidates = combinations(['code', 'token', 'granted_scopes', 'id_token', 'none']);
    const accepted: string[] = [];
    for (const type of candidates) if (await accepts({ response_type: type })) accepted.push(type);
    expect([...accepted].sort()).toEqual([...discovery.response_types_supported].sort());
  });

  it('when a response_mode is advertised, then the dialog answers in it; any other is refused', async () => {
    const accepted: string[] = [];
    for (const mode of ['query', 'fragment', 'form_post', 'web_message', 'query.jwt']) {
      if (await accepts({ response_type: mode === 'query' ? 'code' : 'token', response_mode: mode }))
        accepted.push(mode);
    }
    expect(accepted.sort()).toEqual([...discovery.response_modes_supported].sort());
    expect(await accepts({ response_type: 'token', response_mode: 'query' })).toBe(false);
  });

  it('when a code_challenge_method is advertised, then the dialog takes it; no other is taken', async () => {
    const { challenge } = pkcePair();
    const accepted: string[] = [];
    for (const method of ['S256', 'plain', 's256', 'S512', 'none']) {
      if (await accepts({ scope: 'openid', code_challenge: challenge, code_challenge_method: method }))
        accepted.push(method);
    }
    expect(accepted.sort()).toEqual([...discovery.code_challenge_methods_supported].sort());
  });

  it('when a scope is advertised, then the dialog asks for it; permissions it does not serve are neither advertised nor accepted', async () => {
    for (const scope of discovery.scopes_supported) expect([scope, await accepts({ scope })]).toEqual([scope, true]);
    for (const scope of ['user_posts', 'publish_actions', 'instagram_basic', 'manage_pages', 'profile']) {
      expect(discovery.scopes_supported).not.toContain(scope);
      expect([scope, await accepts({ scope })]).toEqual([scope, false]);
    }
  });

  it('when an ID token is issued with every scope, then it carries exactly the advertised claims, signed with the advertised algorithm', async () => {
    const scope = discovery.scopes_supported.join(' ');
    const code = await codeFor(app, { scope, nonce: 'n-0S6_WzA2Mj' });
    const res = await exchange(app, code).expect(200);
    const [header, payload] = (res.body.id_token as string)
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>);
    expect(discovery.id_token_signing_alg_values_supported).toContain(header!.alg);
    expect(Object.keys(payload!).sort()).toEqual([...discovery.claims_supported].sort());
  });

  it('when the advertised authorization_endpoint is opened, then it is the dialog', async () => {
    const path = new URL(discovery.authorization_endpoint).pathname;
    await request(app).get(path).query({ client_id: CLIENT.clientId, redirect_uri: CLIENT.redirectUri }).expect(200);
  });
});
