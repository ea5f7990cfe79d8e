import { agentFor, startStack, useStack } from '../support/stack';

/**
 * A login begun on another name of this machine than BASE_URL's (127.0.0.1 for localhost) would set its
 * cookie on a host the provider never returns to: it is sent to BASE_URL's origin first. And when a state
 * matches no login, the operator's line says which hosts were involved, never a cookie's value.
 * @see docs/operations.md#host
 */
describe('GET /auth/login on another host name than BASE_URL', () => {
  const stack = useStack({ env: { BASE_URL: 'http://localhost:3000' } });

  it.each(['127.0.0.1:3000', '127.0.0.1', '[::1]:3000', 'app.localhost:3000'])(
    'when the login starts on %s, then 303 to the same path on BASE_URL, with no cookie and no login begun',
    async (host) => {
      const res = await agentFor(stack).get('/auth/login?return_to=%2Fpages%2F123&rerequest=1').set('Host', host);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('http://localhost:3000/auth/login?return_to=%2Fpages%2F123&rerequest=1');
      expect(res.headers['set-cookie']).toBeUndefined();
    },
  );

  it("when the login starts on BASE_URL's host, then it goes to the dialog as before", async () => {
    const res = await agentFor(stack).get('/auth/login').set('Host', 'localhost:3000');
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(new RegExp(`^${stack.config.authUrl}/v\\d+\\.\\d+/dialog/oauth\\?`));
    expect(res.headers['set-cookie']).toBeDefined();
  });

  it('when the callback comes with no session cookie, then 403 and the log names the callback host and BASE_URL host, and no cookie value', async () => {
    const res = await agentFor(stack)
      .get('/auth/callback?code=abc&state=' + 'x'.repeat(43))
      .set('Host', 'localhost:3000')
      .set('Cookie', 'other=secret-cookie-value');
    expect(res.status).toBe(403);
    const line = stack.logs.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => /^state_mismatch:/.test(String(l.msg)));
    expect(line).toMatchObject({ callbackHost: 'localhost', baseUrlHost: 'localhost', sessionCookie: false });
    expect(String(line?.msg)).toContain('was the login started on another host name than localhost');
    expect(stack.logs.text).not.toContain('secret-cookie-value');
  });

  it('when the callback comes to another host than BASE_URL, then the line says which', async () => {
    await agentFor(stack)
      .get('/auth/callback?code=abc&state=' + 'y'.repeat(43))
      .set('Host', '127.0.0.1:3000')
      .expect(403);
    const lines = stack.logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.reverse().find((l) => /^state_mismatch:/.test(String(l.msg)));
    expect(line).toMatchObject({ callbackHost: '127.0.0.1', baseUrlHost: 'localhost' });
    expect(String(line?.msg)).toContain("came to host 127.0.0.1, but BASE_URL's host is localhost");
  });
});

describe('GET /auth/login where BASE_URL is not a loopback name', () => {
  it('when a proxy or a test reaches the app by another name, then no redirect: the dialog as before', async () => {
    const stack = await startStack();
    try {
      const res = await agentFor(stack).get('/auth/login').set('Host', '127.0.0.1:3000');
      expect(res.status).toBe(303);
      expect(res.headers.location).toMatch(new RegExp(`^${stack.config.authUrl}/`));
    } finally {
      await stack.close();
    }
  });
});
