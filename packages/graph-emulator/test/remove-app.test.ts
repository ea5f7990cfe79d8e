import { createHmac, timingSafeEqual } from 'node:crypto';
import request from 'supertest';
import { createEmulator, startEmulator, type CallbackDelivery } from '../src';
import {
  CLIENT,
  graphError,
  graphGet,
  makeEmulator,
  OTHER_CLIENT,
  PAGES,
  pageToken,
  USERS,
  userToken,
} from './helpers';
import { closedPortUrl, startReceiver, type Receiver } from './receiver';

/** Verifies a signed_request the way the provider's documentation tells an app to, independently of src/. */
function verify(signedRequest: string, secret: string): unknown {
  const [sig, payload, ...rest] = signedRequest.split('.');
  if (sig === undefined || payload === undefined || rest.length > 0) throw new Error('not two parts');
  const expected = createHmac('sha256', secret).update(payload).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('bad signature');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

function signedRequestOf(body: string): string {
  const form = new URLSearchParams(body);
  expect([...form.keys()]).toEqual(['signed_request']);
  return form.get('signed_request') ?? '';
}

describe('removing an app: signed callbacks to the registered URLs', () => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => receiver.close());

  const withCallbacks = (timeoutMs = 2000) =>
    makeEmulator({
      clients: [
        {
          ...CLIENT,
          deauthorizeUrl: `${receiver.url}/auth/deauthorize`,
          dataDeletionUrl: `${receiver.url}/auth/data-deletion`,
        },
        OTHER_CLIENT,
      ],
      callbackTimeoutMs: timeoutMs,
    });

  it('when the app is removed, then a form POST signed_request reaches the deauthorize URL, signed with the app secret', async () => {
    const emu = withCallbacks();
    await userToken(emu.app);
    const result = await emu.controls.removeApp({ userId: USERS.ada, clientId: CLIENT.clientId });
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got).toMatchObject({ method: 'POST', path: '/auth/deauthorize' });
    expect(got?.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    const payload = verify(signedRequestOf(got?.body ?? ''), CLIENT.clientSecret);
    expect(payload).toEqual({
      algorithm: 'HMAC-SHA256',
      issued_at: Math.floor(emu.clock.t / 1000),
      user_id: USERS.ada,
    });
    expect(() => verify(signedRequestOf(got?.body ?? ''), OTHER_CLIENT.clientSecret)).toThrow('bad signature');
    expect(result.deliveries).toEqual([
      expect.objectContaining({ kind: 'deauthorize', status: 200, ok: true, userId: USERS.ada }),
    ]);
  });

  it('when the app is removed, then every token of that person for that app answers 190/458, and nobody else is touched', async () => {
    const emu = withCallbacks();
    const user = await userToken(emu.app);
    const page = await pageToken(emu.app, user, PAGES.bakery);
    const grace = emu.controls.issueToken({ userId: USERS.grace }).access_token;
    const otherApp = emu.controls.issueToken({ userId: USERS.ada, clientId: OTHER_CLIENT.clientId }).access_token;
    const result = await emu.controls.removeApp({ userId: USERS.ada, clientId: CLIENT.clientId });
    expect(result.revoked).toBe(2);
    for (const token of [user, page]) {
      const res = await graphGet(emu.app, '/me', token).expect(400);
      expect(graphError(res.body)).toMatchObject({ code: 190, error_subcode: 458 });
    }
    for (const token of [grace, otherApp]) {
      await graphGet(emu.app, '/me', token).expect(200);
    }
  });

  it('when deletion is requested, then the data-deletion URL gets its own signed_request after the deauthorize one, and the confirmation code is recorded', async () => {
    const emu = withCallbacks();
    await userToken(emu.app);
    receiver.answer = (req, res) => {
      const json =
        req.url === '/auth/data-deletion'
          ? { url: 'http://app.test/auth/data-deletion/ABC123', confirmation_code: 'ABC123' }
          : {};
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    };
    const result = await emu.controls.removeApp({
      userId: USERS.ada,
      clientId: CLIENT.clientId,
      requestDeletion: true,
    });
    expect(receiver.received.map((r) => r.path)).toEqual(['/auth/deauthorize', '/auth/data-deletion']);
    const payload = verify(signedRequestOf(receiver.received[1]?.body ?? ''), CLIENT.clientSecret);
    expect(payload).toEqual({ algorithm: 'HMAC-SHA256', issued_at: expect.any(Number), user_id: USERS.ada });
    const deletion = result.deliveries[1];
    expect(deletion).toMatchObject({
      kind: 'data_deletion',
      url: `${receiver.url}/auth/data-deletion`,
      status: 200,
      ok: true,
      confirmationCode: 'ABC123',
      statusUrl: 'http://app.test/auth/data-deletion/ABC123',
      body: { url: 'http://app.test/auth/data-deletion/ABC123', confirmation_code: 'ABC123' },
    });
    expect(emu.controls.callbackDeliveries()).toEqual(result.deliveries);
  });

  it('when a data-deletion answer has no confirmation code, then the delivery is recorded as not confirmed', async () => {
    const emu = withCallbacks();
    receiver.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>thanks</p>');
    };
    const { deliveries } = await emu.controls.removeApp({
      userId: USERS.ada,
      clientId: CLIENT.clientId,
      requestDeletion: true,
    });
    expect(deliveries[0]).toMatchObject({ kind: 'deauthorize', status: 200, ok: true });
    expect(deliveries[1]).toMatchObject({ kind: 'data_deletion', status: 200, ok: false });
    expect(deliveries[1]?.error).toMatch(/confirmation_code/);
    expect(deliveries[1]?.confirmationCode).toBeUndefined();
  });

  it('when the app answers 500, then the delivery is recorded as failed with its status and parsed body', async () => {
    const emu = withCallbacks();
    receiver.answer = (_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
    };
    const { deliveries } = await emu.controls.removeApp({ userId: USERS.ada, clientId: CLIENT.clientId });
    expect(deliveries[0]).toMatchObject({ status: 500, ok: false, body: { error: 'boom' } });
  });

  it('when the app answers too slowly, then the delivery fails at the timeout and the emulator keeps serving', async () => {
    const emu = withCallbacks(200);
    receiver.answer = () => undefined; // never answers
    const t = Date.now();
    const { deliveries } = await emu.controls.removeApp({
      userId: USERS.ada,
      clientId: CLIENT.clientId,
      requestDeletion: true,
    });
    expect(Date.now() - t).toBeLessThan(2000);
    expect(deliveries).toEqual([
      expect.objectContaining({ kind: 'deauthorize', status: null, ok: false, error: expect.stringMatching(/200 ms/) }),
      expect.objectContaining({ kind: 'data_deletion', status: null, ok: false }),
    ]);
    await request(emu.app).get('/__assets/dialog.css').expect(200);
  });

  it('when nothing listens at the callback URL, then the delivery is recorded as failed without crashing', async () => {
    const dead = await closedPortUrl();
    const emu = makeEmulator({ clients: [{ ...CLIENT, deauthorizeUrl: `${dead}/auth/deauthorize` }] });
    const user = await userToken(emu.app);
    const { deliveries, revoked } = await emu.controls.removeApp({ userId: USERS.ada, clientId: CLIENT.clientId });
    expect(revoked).toBe(1);
    expect(deliveries).toEqual([expect.objectContaining({ status: null, ok: false, error: expect.any(String) })]);
    // The app missed the callback: it learns on its next call.
    const res = await graphGet(emu.app, '/me', user).expect(400);
    expect(graphError(res.body).error_subcode).toBe(458);
  });

  it('when the client registered no callback URL, then tokens are revoked and nothing is sent', async () => {
    const emu = makeEmulator();
    await userToken(emu.app);
    const result = await emu.controls.removeApp({
      userId: USERS.ada,
      clientId: CLIENT.clientId,
      requestDeletion: true,
    });
    expect(result).toEqual({ revoked: 1, deliveries: [] });
  });

  it('when the user or the client is unknown or malformed, then removeApp throws naming it and nothing is revoked', async () => {
    const emu = withCallbacks();
    const user = await userToken(emu.app);
    await expect(emu.controls.removeApp({ userId: '999', clientId: CLIENT.clientId })).rejects.toThrow(/user 999/);
    await expect(emu.controls.removeApp({ userId: USERS.ada, clientId: 'nope' })).rejects.toThrow(/client nope/);
    await expect(emu.controls.removeApp({ userId: 'x1', clientId: CLIENT.clientId })).rejects.toThrow(/userId/);
    await graphGet(emu.app, '/me', user).expect(200);
    expect(receiver.received).toHaveLength(0);
  });

  it('when reset runs, then the recorded deliveries are cleared', async () => {
    const emu = withCallbacks();
    await emu.controls.removeApp({ userId: USERS.ada, clientId: CLIENT.clientId });
    expect(emu.controls.callbackDeliveries()).toHaveLength(1);
    emu.controls.reset();
    expect(emu.controls.callbackDeliveries()).toEqual([]);
  });
});

describe('registering callback URLs', () => {
  it.each([
    ['deauthorizeUrl', '/auth/deauthorize'],
    ['deauthorizeUrl', 'ftp://app.test/x'],
    ['dataDeletionUrl', 'javascript:alert(1)'],
    ['dataDeletionUrl', 'http://app.test/x#frag'],
  ])('when %s is %s, then createEmulator refuses the client', (field, value) => {
    expect(() => createEmulator({ clients: [{ ...CLIENT, [field]: value }] })).toThrow(new RegExp(field));
  });
});

describe('the HTTP controls for removing an app', () => {
  let receiver: Receiver;
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    emulator = await startEmulator({
      clients: [{ ...CLIENT, deauthorizeUrl: `${receiver.url}/d`, dataDeletionUrl: `${receiver.url}/dd` }],
      httpControls: true,
    });
  });
  afterAll(async () => {
    await emulator.close();
    await receiver.close();
  });

  const post = (path: string, body: unknown, type = 'application/json') =>
    fetch(`${emulator.url}/__emulator${path}`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: JSON.stringify(body),
    });

  it('when POST /apps/remove names a person and an app, then 200 with what was revoked and delivered, and GET /callbacks lists it', async () => {
    receiver.answer = (req, res) => {
      const json = req.url === '/dd' ? { url: 'http://x.test/s/Z9', confirmation_code: 'Z9' } : {};
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    };
    const token = emulator.controls.issueToken({ userId: USERS.ada }).access_token;
    const res = await post('/apps/remove', { userId: USERS.ada, clientId: CLIENT.clientId, requestDeletion: true });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { revoked: number; deliveries: CallbackDelivery[] };
    expect(body.revoked).toBe(1);
    expect(body.deliveries.map((d) => [d.kind, d.ok, d.confirmationCode])).toEqual([
      ['deauthorize', true, undefined],
      ['data_deletion', true, 'Z9'],
    ]);
    const listed = (await (await fetch(`${emulator.url}/__emulator/callbacks`)).json()) as { data: unknown[] };
    expect(listed.data).toEqual(body.deliveries);
    // Never a secret or a token in what the control shows.
    expect(JSON.stringify(listed)).not.toContain(CLIENT.clientSecret);
    expect(JSON.stringify(listed)).not.toContain(token);
  });

  it('when clientId is left out, then the first registered client is meant', async () => {
    const res = await post('/apps/remove', { userId: USERS.grace });
    expect(res.status).toBe(200);
  });

  it('when the body is wrong, then 400 naming the field; when it is not JSON, then 415', async () => {
    const bad = await post('/apps/remove', { userId: USERS.ada, clientId: CLIENT.clientId, requestDeletion: 'yes' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/requestDeletion/);
    expect((await post('/apps/remove', { userId: '42' })).status).toBe(400);
    expect((await post('/apps/remove', { userId: USERS.ada }, 'application/x-www-form-urlencoded')).status).toBe(415);
  });
});
