import request from 'supertest';
import { makeEmulator, USERS } from './helpers';

/**
 * The settings page removes apps from a person's account: a page on another site that rebinds its own name
 * to this address (DNS rebinding) must not reach it. It answers only to the names the emulator is reached by:
 * a loopback name, or the host of a registered app (whose dialog the browser opens on that name).
 */
describe('the settings page and the Host it is asked for', () => {
  const { app } = makeEmulator();

  it.each(['attacker.example', 'attacker.example:80', '10.0.0.7', 'localhost.attacker.example'])(
    'when Host is %s, then 403 and no settings are shown',
    async (host) => {
      const res = await request(app).get(`/settings/apps?user=${USERS.ada}`).set('host', host).expect(403);
      expect(res.text).not.toContain('Remove');
      await request(app)
        .post('/settings/apps/remove')
        .set('host', host)
        .type('form')
        .send({ user_id: USERS.ada, client_id: '1111222233334444', form_token: 'x', action: 'remove' })
        .expect(403);
    },
  );

  it.each(['localhost', '127.0.0.1:3001', '[::1]', 'app.test', 'OTHER.test'])(
    'when Host is %s (loopback, or a registered app’s host), then the page opens',
    async (host) => {
      await request(app).get('/settings/apps').set('host', host).expect(200);
    },
  );
});
