import { createHmac } from 'node:crypto';
import zlib from 'node:zlib';
import { HANDSHAKE_LIMIT, REFUSED_DELIVERY_LIMIT } from '../../src/webhooks/routes';
import { agentFor, APP_SECRET, startStack, type Stack } from '../support/stack';

const VERIFY_TOKEN = 'verify-token-for-tests-0001';

const signatureOf = (raw: string | Buffer) => `sha256=${createHmac('sha256', APP_SECRET).update(raw).digest('hex')}`;
const delivery = (n: number) =>
  JSON.stringify({ object: 'page', entry: [{ id: '999999999999', changes: [{ field: 'feed', value: { n } }] }] });

/**
 * Whoever is not the provider gets a bounded number of tries per address: guesses at the verify token, and
 * deliveries refused for their signature, encoding or size (docs/architecture.md#live-updates).
 */
describe('/webhooks/facebook limits per address', () => {
  let stack: Stack;
  beforeEach(async () => {
    stack = await startStack({ env: { FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN } });
  });
  afterEach(() => stack.close());

  const handshake = (token: string) =>
    agentFor(stack)
      .get('/webhooks/facebook')
      .query({ 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': '42' });
  const deliver = (body: string | Buffer, signature: string, encoding?: string) => {
    let req = agentFor(stack)
      .post('/webhooks/facebook')
      .set('content-type', 'application/json')
      .set('x-hub-signature-256', signature);
    if (encoding) req = req.set('content-encoding', encoding);
    return req.send(body);
  };

  it('when one address guesses the verify token past the limit, then 429 with a short JSON answer, the right token included', async () => {
    for (let i = 0; i < HANDSHAKE_LIMIT; i++) await handshake(`guess-${i}`).expect(403);
    const res = await handshake(`guess-${HANDSHAKE_LIMIT}`).expect(429);
    expect(res.body).toEqual({ error: 'too many requests' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await handshake(VERIFY_TOKEN).expect(429);
  });

  it('when one address sends refused deliveries past the limit, then 429 before the body is read, and nothing is handled', async () => {
    const kinds = [
      () => deliver(delivery(1), `sha256=${'0'.repeat(64)}`).expect(403),
      () => deliver(zlib.gzipSync(delivery(2)), signatureOf(delivery(2)), 'gzip').expect(415),
      () => deliver(Buffer.alloc(600 * 1024, 'a'), `sha256=${'0'.repeat(64)}`).expect(413),
    ];
    for (let i = 0; i < REFUSED_DELIVERY_LIMIT; i++) await kinds[i % kinds.length]!();
    const res = await deliver(delivery(3), `sha256=${'1'.repeat(64)}`).expect(429);
    expect(res.body).toEqual({ error: 'too many requests' });
    // Over the limit, even a signed delivery from this address waits: the limit is checked before anything is read.
    await deliver(delivery(4), signatureOf(delivery(4))).expect(429);
    expect(stack.logs.text).not.toContain('"msg":"webhook delivery"');
  });

  it('when the provider sends many signed deliveries, then none is refused: only refusals count', async () => {
    for (let i = 0; i < REFUSED_DELIVERY_LIMIT * 3; i++) {
      const raw = delivery(i);
      await deliver(raw, signatureOf(raw)).expect(200);
    }
    // And the refusals still have their whole allowance.
    for (let i = 0; i < REFUSED_DELIVERY_LIMIT; i++) await deliver(delivery(i), `sha256=${'0'.repeat(64)}`).expect(403);
    await deliver(delivery(0), `sha256=${'0'.repeat(64)}`).expect(429);
  });
});
