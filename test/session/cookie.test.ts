import request from 'supertest';
import { proxyWarning } from '../../src/config';
import { completeDialog } from '../support/dialog';
import { csrfFrom, pathOf } from '../support/flow';
import { useStack } from '../support/stack';

const HTTPS = 'https://app.test';

function cookieOf(res: request.Response): string | undefined {
  const all = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  return all.find((c) => c.startsWith('__Host-pagelight='));
}

describe('the session cookie over https', () => {
  const stack = useStack({ env: { BASE_URL: HTTPS, TRUST_PROXY: '1' } });

  it('when the person logs out, then the cookie is cleared with the attributes it was set with (Secure, HttpOnly, SameSite, Path)', async () => {
    const https = (path: string, cookie?: string) => {
      const req = request(stack.app).get(path).set('X-Forwarded-Proto', 'https');
      return cookie ? req.set('Cookie', cookie) : req;
    };
    const start = await https('/auth/login').expect(303);
    let cookie = cookieOf(start)!.split(';')[0]!;
    const callback = await completeDialog(start.headers.location as string);
    const done = await https(pathOf(callback), cookie).expect(303);
    const set = cookieOf(done)!;
    cookie = set.split(';')[0]!;
    const home = await https('/', cookie).expect(200);
    const out = await request(stack.app)
      .post('/auth/logout')
      .set('X-Forwarded-Proto', 'https')
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfFrom(home.text) })
      .expect(303);
    const cleared = cookieOf(out)!;
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
    for (const attribute of [/; Secure/i, /; HttpOnly/i, /; SameSite=Lax/i, /; Path=\//i]) {
      expect(set).toMatch(attribute);
      expect(cleared).toMatch(attribute);
    }
  });
});

describe('the start-up warning about TRUST_PROXY', () => {
  it.each([
    [true, undefined, true],
    [true, false, true],
    [true, 1, false],
    [true, 'loopback', false],
    [false, undefined, false],
    [false, false, false],
  ] as const)(
    'when BASE_URL is https: %s and TRUST_PROXY is %s, then a warning: %s',
    (servedOverHttps, trustProxy, warns) => {
      const warning = proxyWarning({ servedOverHttps, trustProxy });
      if (warns) expect(warning).toMatch(/TRUST_PROXY/);
      else expect(warning).toBeUndefined();
    },
  );
});
