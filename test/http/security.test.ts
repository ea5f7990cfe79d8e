import { SEED_IDS } from '@pagelight/graph-emulator';
import { connectedAgent, csrfFrom, pathOf, signedInAgent, startLogin } from '../support/flow';
import { completeDialog } from '../support/dialog';
import { agentFor, APP_SECRET, useStack } from '../support/stack';
import { hrefOf } from '../support/words';

const BAKERY = SEED_IDS.pages.bakery;

/** docs/architecture.md#security-rules, rule by rule. */
describe('security', () => {
  const stack = useStack();

  it('when any page is served, then helmet headers with a CSP without inline script, no referrer, no framing, no x-powered-by', async () => {
    for (const path of ['/', '/nope', '/pages/abc']) {
      const res = await agentFor(stack).get(path);
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain(`form-action 'self' ${stack.emulator.url}`);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('when a session starts, then its cookie is HttpOnly, SameSite=Lax, not named after the framework, and not Secure on http', async () => {
    const res = await agentFor(stack).get('/auth/login').expect(303);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0]!;
    expect(cookie).toMatch(/^pagelight=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    expect(cookie).not.toMatch(/connect\.sid/);
  });

  it('when the app calls the provider, then tokens never travel in a URL, every token call carries a valid appsecret_proof, and the code exchange is a form POST', async () => {
    stack.emulator.controls.reset();
    const agent = await connectedAgent(stack, BAKERY);
    await agent.get(`/pages/${BAKERY}`).expect(200);
    const entries = stack.emulator.controls.log.filter((e) => e.kind !== 'dialog');
    expect(entries.length).toBeGreaterThanOrEqual(4);
    for (const e of entries) {
      expect(Object.keys(e.query)).not.toContain('access_token');
      expect(Object.keys(e.query)).not.toContain('client_secret');
      expect(Object.keys(e.query)).not.toContain('code');
    }
    const exchange = entries.find((e) => e.kind === 'token' && e.form.code !== undefined);
    expect(exchange).toMatchObject({ method: 'POST' });
    // PKCE is off by default with FB_APP_ID set; with FB_PKCE=on see test/auth/oidc.test.ts.
    expect(exchange!.form).not.toHaveProperty('code_verifier');
    const graph = entries.filter((e) => e.kind === 'graph');
    expect(graph.every((e) => e.tokenVia === 'header' && e.appsecretProof)).toBe(true);
    expect(graph.some((e) => e.tokenKind === 'page')).toBe(true);
    // The emulator checks each proof against the app secret and would have refused a wrong one.
    expect(entries.filter((e) => (e.status ?? 0) >= 400)).toEqual([]);
  });

  it('when the whole flow has run, then no response body and no log line holds a token, the secret, a code or a proof', async () => {
    stack.emulator.controls.reset();
    const agent = agentFor(stack);
    const bodies: string[] = [];
    const dialogUrl = await startLogin(agent);
    const callback = await completeDialog(dialogUrl);
    const code = callback.searchParams.get('code')!;
    const cb = await agent.get(pathOf(callback));
    bodies.push(cb.text, JSON.stringify(cb.headers));
    const picker = await agent.get('/pages');
    bodies.push(picker.text);
    bodies.push(
      (
        await agent
          .post(`/pages/${BAKERY}/connect`)
          .type('form')
          .send({ _csrf: csrfFrom(picker.text) })
      ).text,
    );
    const page = await agent.get(`/pages/${BAKERY}`);
    bodies.push(page.text, JSON.stringify(page.headers));
    const older = hrefOf(page.text, 'Older posts')!;
    bodies.push((await agent.get(older)).text);
    stack.emulator.controls.expireTokens();
    bodies.push((await agent.get(`/pages/${BAKERY}`)).text, (await agent.get('/')).text);

    const secrets = new Set<string>([code, APP_SECRET]);
    for (const e of stack.emulator.controls.log) {
      for (const [k, v] of Object.entries({ ...e.query, ...e.form })) {
        if (
          ['access_token', 'code', 'client_secret', 'appsecret_proof', 'fb_exchange_token', 'code_verifier'].includes(
            k,
          ) &&
          v
        )
          secrets.add(v);
      }
    }
    for (const token of stack.emulator.controls.issuedTokens()) secrets.add(token);
    expect(secrets.size).toBeGreaterThan(3);
    const logText = stack.logs.text;
    expect(logText.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      for (const body of bodies) expect(body).not.toContain(secret);
      expect(logText).not.toContain(secret);
    }
  });

  it('when the provider answers with an error echoing credentials, then the page and the log show them redacted', async () => {
    const agent = await signedInAgent(stack);
    stack.emulator.controls.failNext(1, {
      status: 400,
      error: { code: 100, message: 'Bad request access_token=EAAleakedleakedleaked123 client_secret=oops' },
    });
    const res = await agent.get('/pages').expect(502);
    expect(res.text).not.toContain('EAAleaked');
    expect(res.text).not.toContain('oops');
    expect(stack.logs.text).not.toContain('EAAleaked');
  });
});

describe('behind a TLS proxy', () => {
  const stack = useStack({ env: { BASE_URL: 'https://pages.example.com', TRUST_PROXY: '1' } });

  it('when BASE_URL is https, then the cookie is Secure with a __Host- name and HSTS is sent', async () => {
    const res = await agentFor(stack).get('/auth/login').set('X-Forwarded-Proto', 'https').expect(303);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0]!;
    expect(cookie).toMatch(/^__Host-pagelight=/);
    expect(cookie).toMatch(/Secure/);
    expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
  });
});
