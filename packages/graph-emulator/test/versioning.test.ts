import request from 'supertest';
import { graphGet, makeEmulator, userToken } from './helpers';

describe('facebook-api-version and the app version', () => {
  it('when a call names a version, then the answer says that version', async () => {
    const { app } = makeEmulator();
    const user = await userToken(app);
    const res = await graphGet(app, '/v25.0/me', user).expect(200);
    expect(res.headers['facebook-api-version']).toBe('v25.0');
  });

  it('when a call names none, then it runs at the app version (default v23.0), also on errors', async () => {
    const { app } = makeEmulator();
    const res = await request(app).get('/me').expect(400);
    expect(res.headers['facebook-api-version']).toBe('v23.0');
  });

  it('when appVersion is configured, then unversioned calls answer at it', async () => {
    const { app } = makeEmulator({ appVersion: 'v21.0' });
    const user = await userToken(app);
    const res = await graphGet(app, '/me', user).expect(200);
    expect(res.headers['facebook-api-version']).toBe('v21.0');
  });

  it('when appVersion is malformed, then createEmulator refuses it', () => {
    expect(() => makeEmulator({ appVersion: '21' })).toThrow(/appVersion/);
  });
});

describe('a call to a retired version (docs/reference.md#versions)', () => {
  const NOV_24_2026 = Date.UTC(2026, 10, 24, 12);

  it('when a call names v19.0 or v20.0 after their end, then it answers as v21.0, the oldest still available, and says so', async () => {
    const { app, clock } = makeEmulator();
    clock.t = NOV_24_2026;
    const user = await userToken(app);
    for (const retired of ['v19.0', 'v20.0', 'v2.0']) {
      const res = await graphGet(app, `/${retired}/me`, user).expect(200);
      expect(res.headers['facebook-api-version']).toBe('v21.0');
    }
  });

  it('when the clock passes v21.0’s end (January 21, 2027), then v21.0 answers as v22.0', async () => {
    const { app, clock } = makeEmulator();
    clock.t = Date.UTC(2027, 0, 20, 23, 59);
    const user = await userToken(app);
    expect((await graphGet(app, '/v21.0/me', user).expect(200)).headers['facebook-api-version']).toBe('v21.0');
    clock.t = Date.UTC(2027, 0, 21);
    expect((await graphGet(app, '/v21.0/me', user).expect(200)).headers['facebook-api-version']).toBe('v22.0');
  });

  it('when a call names a version the table does not know that is newer than all of it, then it answers at that version', async () => {
    const { app } = makeEmulator();
    const user = await userToken(app);
    expect((await graphGet(app, '/v99.12/me', user).expect(200)).headers['facebook-api-version']).toBe('v99.12');
  });

  it('when the app version is retired, then unversioned calls answer at the oldest available one', async () => {
    const { app, clock } = makeEmulator({ appVersion: 'v20.0' });
    clock.t = NOV_24_2026;
    const res = await request(app).get('/me').expect(400);
    expect(res.headers['facebook-api-version']).toBe('v21.0');
  });
});
