import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { fixedHeaders } from '../../src/http/fixedHeaders';

/** The headers `middleware` gives a GET and a POST, without the ones Express or Node add on their own. */
async function headersOf(middleware: RequestHandler) {
  const app = express();
  app.use(middleware);
  app.all('/x', (_req, res) => res.send('ok'));
  const own = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-type', 'etag', 'x-powered-by']);
  const pick = (headers: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(headers).filter(([k]) => !own.has(k)));
  return [pick((await request(app).get('/x')).headers), pick((await request(app).post('/x')).headers)];
}

const options = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      formAction: ["'self'", 'https://www.facebook.com'],
      upgradeInsecureRequests: [],
    },
  },
  referrerPolicy: { policy: 'no-referrer' as const },
  strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
};

describe('fixedHeaders', () => {
  it('when helmet sets the same headers on every answer, then the replay sets exactly those', async () => {
    const direct = await headersOf(helmet(options));
    const replayed = await headersOf(fixedHeaders(helmet(options)));
    expect(replayed).toEqual(direct);
    expect(replayed[0]!['content-security-policy']).toContain("form-action 'self' https://www.facebook.com");
    expect(Object.keys(replayed[0]!).length).toBeGreaterThan(8);
  });

  it('when a directive is computed per request (a nonce), then the middleware still runs per request', async () => {
    let n = 0;
    const nonced = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'self'"], scriptSrc: [() => `'nonce-${++n}'`] },
      },
    });
    const [first, second] = await headersOf(fixedHeaders(nonced));
    expect(first!['content-security-policy']).not.toEqual(second!['content-security-policy']);
  });

  it('when a middleware reads the request, then it is not replayed', async () => {
    const byMethod: RequestHandler = (req, res, next) => {
      res.setHeader('X-Method', req.method);
      next();
    };
    const [get, post] = await headersOf(fixedHeaders(byMethod));
    expect([get!['x-method'], post!['x-method']]).toEqual(['GET', 'POST']);
  });
});
