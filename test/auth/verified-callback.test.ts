import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request } from 'express';
import { parseCallback } from '../../src/auth/callback';
import { beginLogin, consumeState } from '../../src/auth/pending';
import { GraphClient, type VerifiedCallback } from '../../src/graph/client';
import '../../src/session/types';

describe('the code exchange takes only a verified callback', () => {
  let server: http.Server;
  let forms: URLSearchParams[];
  let graph: GraphClient;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        forms.push(new URLSearchParams(body));
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ access_token: 'user-token', token_type: 'bearer', expires_in: 3600 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    graph = new GraphClient({
      graphUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiVersion: 'v23.0',
      appId: 'app',
      appSecret: 'secret',
      redirectUri: 'http://app.example/auth/callback',
      timeoutMs: 2000,
      now: () => 1_000_000,
    });
  });
  beforeEach(() => {
    forms = [];
  });
  afterAll(async () => {
    graph.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('when a code comes without the state check, then it does not compile', () => {
    const unchecked = { code: 'the-code', verifier: 'v'.repeat(43) };
    // @ts-expect-error a plain { code, verifier } is not a VerifiedCallback
    const call = () => graph.exchangeCode(unchecked);
    expect(typeof call).toBe('function');
    // @ts-expect-error nor are the parsed, unchecked callback parameters
    const parsed = () => graph.exchangeCode(parseCallback({ code: 'the-code', state: 's' }));
    expect(typeof parsed).toBe('function');
  });

  it('when the state check passes, then its result is what the exchange sends: the code and that login’s verifier', async () => {
    const req = { session: {} } as unknown as Request;
    const login = beginLogin(req, 0, { pkce: true, oidc: false });
    const params = parseCallback({ code: 'the-code', state: login.state });
    if (params.kind !== 'code') throw new Error('expected a code callback');
    const check = consumeState(req, params, 1);
    if (!check.ok) throw new Error(`state check failed: ${check.reason}`);
    const callback: VerifiedCallback = check.callback;
    const grant = await graph.exchangeCode(callback);
    expect(grant).toEqual({ token: 'user-token', expiresAt: 1_000_000 + 3600 * 1000, idToken: undefined });
    expect(forms).toHaveLength(1);
    expect(forms[0]!.get('code')).toBe('the-code');
    expect(forms[0]!.get('code_verifier')).toBe(login.verifier);
  });

  it('when the state check fails, then there is no callback to exchange', () => {
    const req = { session: {} } as unknown as Request;
    beginLogin(req, 0, { pkce: true, oidc: false });
    const params = parseCallback({ code: 'the-code', state: 'forged' });
    if (params.kind !== 'code') throw new Error('expected a code callback');
    const check = consumeState(req, params, 1);
    expect(check).toEqual({ ok: false, reason: 'unknown' });
    expect('callback' in check).toBe(false);
  });
});
