/**
 * passport-facebook (with passport): the Passport strategy for Facebook Login completes its flow against the
 * emulator over real sockets. The strategy's own defaults are kept, except the provider's origin: it is told
 * the emulator's dialog, token endpoint and profile URL, as it is documented to accept (authorizationURL,
 * tokenURL, profileURL). docs/fidelity.md.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import passport from 'passport';
import { Strategy as FacebookStrategy, type Profile } from 'passport-facebook';
import { startEmulator, type RunningEmulator } from '../../src';
import { CLIENT, USERS } from '../helpers';
import { approveAtDialog } from './browser';

describe('passport-facebook against the emulator', () => {
  let app: Server;
  let appUrl: string;
  let emulator: RunningEmulator;

  beforeAll(async () => {
    const web = express();
    app = createServer(web);
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    emulator = await startEmulator({ clients: [{ ...CLIENT, redirectUri: `${appUrl}/auth/facebook/callback` }] });

    passport.use(
      new FacebookStrategy(
        {
          clientID: CLIENT.clientId,
          clientSecret: CLIENT.clientSecret,
          callbackURL: `${appUrl}/auth/facebook/callback`,
          authorizationURL: `${emulator.url}/v25.0/dialog/oauth`,
          tokenURL: `${emulator.url}/v25.0/oauth/access_token`,
          profileURL: `${emulator.url}/v25.0/me`,
          profileFields: ['id', 'displayName', 'name'],
          // appsecret_proof on the profile call, which the emulator checks as the provider does.
          enableProof: true,
        },
        (_accessToken: string, _refreshToken: string, profile: Profile, done: (err: null, user: Profile) => void) =>
          done(null, profile),
      ),
    );
    const authenticate = passport.authenticate('facebook', { session: false, scope: ['pages_show_list'] });
    web.get('/auth/facebook', authenticate);
    web.get('/auth/facebook/callback', authenticate, (req, res) => {
      const profile = req.user as Profile;
      res.json({ id: profile.id, displayName: profile.displayName, givenName: profile.name?.givenName });
    });
  });
  afterAll(async () => {
    await emulator.close();
    await new Promise((resolve) => app.close(resolve));
  });

  it('when a person logs in through the strategy, then it exchanges the code and reads her profile', async () => {
    const start = await fetch(`${appUrl}/auth/facebook`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const callback = await approveAtDialog(start.headers.get('location') ?? '', USERS.ada);
    expect(callback.hash).toBe('#_=_');
    const done = await fetch(callback);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ id: USERS.ada, displayName: 'Ada Lovelace', givenName: 'Ada' });
    const calls = emulator.controls.requestLog.map((entry) => entry.path);
    expect(calls).toEqual([
      '/v25.0/dialog/oauth',
      '/v25.0/dialog/oauth/decision',
      '/v25.0/oauth/access_token',
      '/v25.0/me',
    ]);
  });
});
