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
