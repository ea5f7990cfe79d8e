import request from 'supertest';
import { startEmulator, SEED_IDS, type RunningEmulator } from '../src';
import { MAX_PENDING_PER_CLIENT } from '../src/store/dialogs';
import { CLIENT, makeEmulator, openDialog, PAGES, pageToken, requestIdOf, userToken } from './helpers';

/**
 * The emulator is reachable from a browser that also visits other sites: its
 * controls must not be drivable cross-site or through a rebound DNS name, a
 * flood of dialog GETs must not end a real person's login, and its links must
 * not point wherever a request's Host header says.
 */
describe('the HTTP controls', () => {
  it('when the emulator is created without httpControls, then /__emulator is not there', async () => {
    const { app } = makeEmulator();
    const res = await request(app).post('/__emulator/reset').set('content-type', 'application/json').send('{}');
    expect(res.status).not.toBe(204);
    expect((await request(app).get('/__emulator/log')).status).not.toBe(200);
  });

  describe('when mounted', () => {
    let emulator: RunningEmulator;
    beforeAll(async () => {
      emulator = await startEmulator({ clients: [CLIENT], httpControls: true });
    });
    afterAll(() => emulator.close());
    beforeEach(() => emulator.controls.reset());

    it('when a POST comes as text/plain (a cross-site fetch needs no preflight for that), then 415 and nothing changes', async () => {
      const res = await fetch(`${emulator.url}/__emulator/latency`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{"ms":5000}',
      });
      expect(res.status).toBe(415);
      const form = await fetch(`${emulator.url}/__emulator/reset`, {
        method: 'POST',
        body: new URLSearchParams({ a: '1' }),
      });
      expect(form.status).toBe(415);
      const t = Date.now();
      await fetch(`${emulator.url}/me`);
      expect(Date.now() - t).toBeLessThan(1000);
    });

    it.each(['evil.example', `evil.example:${0}`, 'localhost.evil.example', '127.0.0.1.nip.io'])(
      'when the Host header is %s (a rebound DNS name), then 403 and the log is not shown',
      async (host) => {
        const res = await request(emulator.url)
          .get('/__emulator/log')
          .set('Host', host.replace(':0', `:${emulator.port}`));
        expect(res.status).toBe(403);
        expect(res.text).not.toContain('data');
      },
    );

    it('when the Host is a loopback name on another port, then 403; on this port, then 200', async () => {
      expect(
        (
          await request(emulator.url)
            .get('/__emulator/log')
            .set('Host', `localhost:${emulator.port + 1}`)
        ).status,
      ).toBe(403);
      for (const name of ['localhost', '127.0.0.1', '[::1]']) {
        expect(
          (await request(emulator.url).get('/__emulator/log').set('Host', `${name}:${emulator.port}`)).status,
        ).toBe(200);
      }
    });

    it('when /tokens/revoke gets an empty body, then 400 and no token is revoked', async () => {
      const { access_token } = emulator.controls.issueToken({ userId: SEED_IDS.users.ada });
      for (const body of [undefined, '{}', '{"reason":"app_removed"}']) {
        const res = await fetch(`${emulator.url}/__emulator/tokens/revoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          ...(body !== undefined ? { body } : {}),
        });
        expect(res.status).toBe(400);
      }
      expect((await fetch(`${emulator.url}/me`, { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(
        200,
      );
    });
  });
});

describe('the login dialog under a flood', () => {
  it('when 1,000 anonymous dialog GETs follow a real person opening the dialog, then that person can still decide', async () => {
    const { app } = makeEmulator();
    const person = await openDialog(app, { state: 'the-person' }).expect(200);
    const requestId = requestIdOf(person.text);
    const answers: number[] = [];
    for (let i = 0; i < 1000; i++) {
      answers.push((await openDialog(app, { state: `flood-${i}` })).status);
    }
    // The flood is refused once its address holds its share, rather than pushing anyone out.
    expect(answers.filter((s) => s === 200).length).toBeLessThan(MAX_PENDING_PER_CLIENT);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(1000 - MAX_PENDING_PER_CLIENT);
    const decided = await request(app)
      .post('/v23.0/dialog/oauth/decision')
      .type('form')
      .send({
        request_id: requestId,
        decision: 'continue',
        user_id: SEED_IDS.users.ada,
        [`perm_${SEED_IDS.users.ada}`]: ['pages_show_list'],
      });
    expect(decided.status).toBe(302);
    expect(decided.headers.location).toContain('state=the-person');
  });
});

describe('paging links', () => {
  it('when a request carries a forged Host header, then next/previous still point at the configured public URL', async () => {
    const { app } = makeEmulator({ publicUrl: 'http://graph.emulator.test:8080' });
    const token = await pageToken(app, await userToken(app), PAGES.bakery);
    const res = await request(app)
      .get(`/v23.0/${PAGES.bakery}/feed`)
      .query({ limit: '2' })
      .set('Host', 'evil.example')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const next = new URL((res.body as { paging: { next: string } }).paging.next);
    expect(next.origin).toBe('http://graph.emulator.test:8080');
  });

  it('when started without a public URL, then links point at the listening URL', async () => {
    const emulator = await startEmulator({ clients: [CLIENT] });
    try {
      const { access_token } = emulator.controls.issueToken({ userId: SEED_IDS.users.ada, pageId: PAGES.bakery });
      const res = await fetch(`${emulator.url}/v23.0/${PAGES.bakery}/feed?limit=2`, {
        headers: { authorization: `Bearer ${access_token}`, host: 'evil.example' },
      });
      const next = new URL(((await res.json()) as { paging: { next: string } }).paging.next);
      expect(next.origin).toBe(emulator.url);
    } finally {
      await emulator.close();
    }
  });
});
