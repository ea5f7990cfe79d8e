/** Errors and throttling on command (README#test-controls): a scripted failure may carry Retry-After. */
import request from 'supertest';
import { createEmulator, SEED_IDS } from '../src';
import { CLIENT } from './helpers';

describe('a scripted failure with retryAfter', () => {
  const { app, controls } = createEmulator({ clients: [CLIENT], httpControls: true });
  const { access_token } = controls.issueToken({ userId: SEED_IDS.users.ada });
  const fail = (body: unknown) =>
    request(app).post('/__emulator/fail').set('content-type', 'application/json').send(JSON.stringify(body));

  it('when a throttling error is scripted over HTTP with retryAfter, then the next call gets it with Retry-After, and the one after succeeds', async () => {
    const scripted = await fail({ n: 1, failure: { status: 400, error: { code: 80001 }, retryAfter: 30 } });
    expect(scripted.status).toBe(204);
    const refused = await request(app).get('/v25.0/me').set('authorization', `Bearer ${access_token}`);
    expect(refused.status).toBe(400);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.body.error.code).toBe(80001);
    const next = await request(app).get('/v25.0/me').set('authorization', `Bearer ${access_token}`);
    expect(next.status).toBe(200);
    expect(next.headers['retry-after']).toBeUndefined();
  });

  it('when an HTTP 503 is scripted with retryAfter, then it carries Retry-After; a negative one is a 400 naming it', async () => {
    expect((await fail({ failure: { kind: 'http', status: 503, retryAfter: 5 } })).status).toBe(204);
    const res = await request(app).get('/v25.0/me').set('authorization', `Bearer ${access_token}`);
    expect([res.status, res.headers['retry-after']]).toEqual([503, '5']);
    const bad = await fail({ failure: { kind: 'http', status: 503, retryAfter: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/retryAfter/);
  });
});
