import request from 'supertest';
import { DEFAULT_CONFIGURATIONS } from '../src';
import { dialogQuery, graphGet, makeEmulator, userToken } from './helpers';

const CONFIG_ID = DEFAULT_CONFIGURATIONS[0]!.id;

describe('Facebook Login for Business configurations (config_id)', () => {
  it("when the dialog is opened with config_id and no scope, then it shows the configuration's permissions", async () => {
    const { app } = makeEmulator();
    const q = dialogQuery({ config_id: CONFIG_ID });
    delete q.scope;
    const page = await request(app).get('/v26.0/dialog/oauth').query(q).expect(200);
    expect(page.text).toContain('pages_show_list');
    expect(page.text).toContain('pages_read_engagement');
    expect(page.text).not.toContain('pages_read_user_content');
  });

  it("when the person approves, then the token holds exactly the configuration's permissions, whatever scope said", async () => {
    const { app } = makeEmulator();
    const token = await userToken(
      app,
      { perms: ['pages_show_list', 'pages_read_engagement', 'pages_read_user_content'] },
      { config_id: CONFIG_ID, scope: 'pages_read_user_content' },
    );
    const res = await graphGet(app, '/me/permissions', token).expect(200);
    const granted = (res.body as { data: { permission: string; status: string }[] }).data
      .filter((p) => p.status === 'granted')
      .map((p) => p.permission);
    expect(granted.sort()).toEqual(['pages_read_engagement', 'pages_show_list', 'public_profile']);
  });

  it('when config_id names no configuration, then an error page and no redirect', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .get('/v26.0/dialog/oauth')
      .query(dialogQuery({ config_id: '42' }))
      .expect(400);
    expect(res.text).toContain('Invalid configuration');
    expect(res.headers.location).toBeUndefined();
  });
});
