/**
 * The production guard (README#production-guard): the emulator listens on loopback and an unprivileged port
 * unless told otherwise, opens its pages and controls to named hosts only, and names itself in every answer.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createEmulator, EMULATOR_HEADER, startEmulator, SEED_IDS } from '../src';
import { loadProviderEnv } from '../src/env';
import { CLIENT } from './helpers';

const { version } = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };

describe('the production guard', () => {
  it('when asked to listen on 0.0.0.0 or a privileged port without expose, then it refuses before listening', async () => {
    await expect(startEmulator({ clients: [CLIENT], host: '0.0.0.0' })).rejects.toThrow(
      'startEmulator: host 0.0.0.0 is not a loopback address; pass expose: true to listen on it',
    );
    await expect(startEmulator({ clients: [CLIENT], port: 443 })).rejects.toThrow(/port 443 is a privileged port/);
  });

  it('when exposed, then it listens on every interface and still shows a loopback URL', async () => {
    const running = await startEmulator({ clients: [CLIENT], host: '0.0.0.0', expose: true });
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${running.url}/.well-known/openid-configuration`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('when EMULATOR_HOST is not loopback or PROVIDER_PORT is privileged, then one line asks for EMULATOR_EXPOSE=on', () => {
    expect(() => loadProviderEnv({ EMULATOR_HOST: '0.0.0.0' })).toThrow(
      /^EMULATOR_HOST is 0\.0\.0\.0, not a loopback address: .* set EMULATOR_EXPOSE=on/,
    );
    expect(() => loadProviderEnv({ PROVIDER_PORT: '80' })).toThrow(/^PROVIDER_PORT is 80, a privileged port/);
    expect(() => loadProviderEnv({ EMULATOR_EXPOSE: 'yes' })).toThrow(/^EMULATOR_EXPOSE must be "on" or "off"/);
    const env = loadProviderEnv({ EMULATOR_HOST: '0.0.0.0', EMULATOR_EXPOSE: 'on', EMULATOR_HOSTS: 'graph-emulator' });
    expect(env).toMatchObject({ host: '0.0.0.0', expose: true, hosts: ['graph-emulator'] });
    expect(loadProviderEnv({})).toMatchObject({ host: '127.0.0.1', expose: false, hosts: [] });
    expect(() => loadProviderEnv({ EMULATOR_HOSTS: 'a b' })).toThrow(/^EMULATOR_HOSTS must list host names/);
  });

  it('when a container calls the controls by a service name, then they refuse it unless opened to that name, and say how', async () => {
    const closed = createEmulator({ clients: [CLIENT], httpControls: true });
    const refused = await request(closed.app).get('/__emulator/seed').set('host', 'graph-emulator:3001');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/the hosts option, EMULATOR_HOSTS/);

    const opened = createEmulator({ clients: [CLIENT], httpControls: true, hosts: ['Graph-Emulator'] });
    const seed = await request(opened.app).get('/__emulator/seed').set('host', 'graph-emulator:3001');
    expect(seed.status).toBe(200);
    expect(seed.body.name).toBe('demo');
    const other = await request(opened.app).get('/__emulator/seed').set('host', 'evil.example');
    expect(other.status).toBe(403);
  });

  it('when hosts holds something that is not a host name, then createEmulator refuses it', () => {
    expect(() => createEmulator({ clients: [CLIENT], hosts: ['http://x'] })).toThrow(
      'createEmulator: hosts: "http://x" is not a host name',
    );
  });

  it('when anything answers (Graph, an error, the dialog, the controls), then it names the emulator and its version', async () => {
    const { app, controls } = createEmulator({ clients: [CLIENT], httpControls: true });
    const { access_token } = controls.issueToken({ userId: SEED_IDS.users.ada });
    const answers = await Promise.all([
      request(app).get('/v25.0/me').set('authorization', `Bearer ${access_token}`),
      request(app).get('/v25.0/me'),
      request(app).get('/v25.0/dialog/oauth').query({ client_id: CLIENT.clientId }),
      request(app).get('/__emulator/seed'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 400, 400, 200]);
    for (const answer of answers)
      expect(answer.headers[EMULATOR_HEADER.toLowerCase()]).toBe(`graph-emulator/${version}`);
  });
});
