/**
 * The emulator must never crash or answer 500 on odd input: every request
 * below gets a well-formed 4xx (Graph JSON or an HTML error page).
 */
import request from 'supertest';
import { CLIENT, graphGet, makeEmulator, PAGES, useBakeryTokens } from './helpers';

describe('odd input', () => {
  const { app } = makeEmulator();
  const tokens = useBakeryTokens(app);

  const graphPaths = [
    '/',
    '/%',
    '/%E0%A4%A',
    '/me/%ZZ',
    '/me/../../etc/passwd',
    `/${PAGES.bakery}?fields=${encodeURIComponent('a'.repeat(5000))}`,
    `/${PAGES.bakery}?fields=,,,`,
    `/${PAGES.bakery}/feed?limit=99999999999999999999`,
    `/${PAGES.bakery}/feed?after=${'A'.repeat(2000)}`,
    `/${PAGES.bakery}/feed?after=x&before=y`,
    `/${PAGES.bakery}/feed?limit[]=1`,
    '/me?fields[a]=1',
    '/me?__proto__=x&constructor=y',
    '/oauth/access_token?client_id[]=1',
    '/oauth/access_token?client_id=%00',
    '/v1.0/v2.0/me',
    '/vX.Y/me',
    '/me/accounts?limit=0',
  ];

  it.each(graphPaths)('when GET %s, then a JSON error or a valid answer, never a 5xx', async (path) => {
    for (const token of [tokens.ada, tokens.bakery, 'junk']) {
      const res = await graphGet(app, path, token);
      expect(res.status).toBeLessThan(500);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      if (res.status >= 400) expect(res.body.error.fbtrace_id).toMatch(/^[A-Za-z0-9]{11}$/);
    }
  });

  it.each([
    ['a malformed Authorization header', { Authorization: 'Bearer' }],
    ['an unsupported scheme', { Authorization: 'Digest abc' }],
    ['a broken Basic header', { Authorization: 'Basic !!!' }],
    ['a Basic header without a colon', { Authorization: `Basic ${Buffer.from('nocolon').toString('base64')}` }],
    ['a Basic header with bad escapes', { Authorization: `Basic ${Buffer.from('%E0%A4%A:%').toString('base64')}` }],
  ])('when a request has %s, then 4xx JSON', async (_n, headers) => {
    for (const path of ['/me', '/oauth/access_token']) {
      const res = await request(app).get(path).set(headers);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it('when a form body is malformed, huge or JSON, then 4xx JSON', async () => {
    const huge = await request(app)
      .post('/me')
      .type('form')
      .send(`method=get&x=${'a'.repeat(200_000)}`);
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe(100);
    const many = await request(app)
      .post('/me')
      .type('form')
      .send(Array.from({ length: 500 }, (_, i) => `k${i}=v`).join('&'));
    expect(many.status).toBeGreaterThanOrEqual(400);
    expect(many.status).toBeLessThan(500);
    const json = await request(app).post('/me').set('content-type', 'application/json').send('{"method":"get"}');
    expect(json.status).toBe(400);
    const charset = await request(app)
      .post('/me')
      .set('content-type', 'application/x-www-form-urlencoded; charset=koi8-r')
      .send('a=b');
    expect(charset.status).toBeLessThan(500);
  });

  it.each(['PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const)('when the method is %s, then 4xx', async (method) => {
    const res = await request(app)
      [method.toLowerCase() as 'put' | 'delete' | 'patch' | 'options']('/me')
      .set('Authorization', `Bearer ${tokens.ada}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('when the dialog gets odd input, then an HTML 4xx page', async () => {
    const odd = [
      '/v23.0/dialog/oauth',
      '/v23.0/dialog/oauth?client_id[]=1',
      `/v23.0/dialog/oauth?client_id=${CLIENT.clientId}&redirect_uri=${encodeURIComponent(CLIENT.redirectUri)}&state=${'s'.repeat(3000)}`,
      `/v23.0/dialog/oauth?client_id=${CLIENT.clientId}&redirect_uri=${encodeURIComponent(CLIENT.redirectUri)}&code_challenge_method=S256`,
      '/v23.0/dialog/oauth?client_id=%',
    ];
    for (const path of odd) {
      const res = await request(app).get(path);
      expect([400, 404]).toContain(res.status);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    for (const body of ['', 'request_id[]=1', 'request_id=x&decision=continue', `x=${'a'.repeat(200_000)}`]) {
      const res = await request(app).post('/v23.0/dialog/oauth/decision').type('form').send(body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    expect((await request(app).put('/v23.0/dialog/oauth')).status).toBe(405);
  });

  it('when random bytes are thrown at random paths, then no answer is a 5xx', async () => {
    let seed = 42;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = [
      'me',
      'feed',
      PAGES.bakery,
      'accounts',
      'oauth',
      'access_token',
      'v1.0',
      'dialog',
      '%2F',
      '..',
      '',
      '%00',
      'ü',
      '?',
      '&',
      '=',
      '#',
    ];
    for (let i = 0; i < 150; i++) {
      const path = `/${Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pieces[Math.floor(rnd() * pieces.length)]).join('/')}`;
      const qs = Array.from(
        { length: Math.floor(rnd() * 4) },
        () => `${pieces[Math.floor(rnd() * pieces.length)]}=${pieces[Math.floor(rnd() * pieces.length)]}`,
      ).join('&');
      const res = await request(app)
        .get(`${path.replace(/#/g, '%23')}?${qs.replace(/#/g, '%23')}`)
        .set('Authorization', `Bearer ${rnd() > 0.5 ? tokens.bakery : tokens.ada}`);
      expect(res.status).toBeLessThan(500);
    }
  });
});
