import { createHmac } from 'node:crypto';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { HANDSHAKE_LIMIT, REFUSED_DELIVERY_LIMIT } from '../../src/webhooks/routes';
import { agentFor, APP_SECRET, startStack, useStack } from '../support/stack';
import { eventually } from '../support/wait';

const VERIFY_TOKEN = 'verify-token-for-tests-0001';

const signatureOf = (raw: string | Buffer) => `sha256=${createHmac('sha256', APP_SECRET).update(raw).digest('hex')}`;
const delivery = (n: number) =>
  JSON.stringify({ object: 'page', entry: [{ id: '999999999999', changes: [{ field: 'feed', value: { n } }] }] });

/**
 * Whoever is not the provider gets a bounded number of tries per address: guesses at the verify token, and
 * deliveries refused for their signature, encoding or size (docs/architecture.md#live-updates).
 */
describe('/webhooks/facebook limits per address', () => {
  const stack = useStack({ env: { FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN } }, { perTest: true });

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

  it('when one address sends refused deliveries past the limit, then 429, and nothing is handled', async () => {
    const kinds = [
      () => deliver(delivery(1), `sha256=${'0'.repeat(64)}`).expect(403),
      () => deliver(zlib.gzipSync(delivery(2)), signatureOf(delivery(2)), 'gzip').expect(415),
      () => deliver(Buffer.alloc(600 * 1024, 'a'), `sha256=${'0'.repeat(64)}`).expect(413),
    ];
    for (let i = 0; i < REFUSED_DELIVERY_LIMIT; i++) await kinds[i % kinds.length]!();
    const res = await deliver(delivery(3), `sha256=${'1'.repeat(64)}`).expect(429);
    expect(res.body).toEqual({ error: 'too many requests' });
    expect(stack.logs.text).not.toContain('"msg":"webhook delivery"');
  });

  it("when a flood of unsigned bodies shares the provider's address (a proxy without TRUST_PROXY), then the provider's signed deliveries are still handled", async () => {
    for (let i = 0; i <= REFUSED_DELIVERY_LIMIT; i++) await deliver(delivery(i), `sha256=${'0'.repeat(64)}`);
    await deliver(delivery(1), `sha256=${'0'.repeat(64)}`).expect(429);
    await deliver(delivery(4), signatureOf(delivery(4))).expect(200);
    await eventually(() => stack.logs.text.includes('"msg":"webhook delivery"'));
  });

  it('when signed and unsigned deliveries come from one address in any order, then no signed one is refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: REFUSED_DELIVERY_LIMIT }), async (signed) => {
        const flood = await startStack({ env: { FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN } });
        try {
          // The flood comes first, then any mix: the limit is reached whatever follows.
          for (const [i, isSigned] of [...Array<boolean>(REFUSED_DELIVERY_LIMIT).fill(false), ...signed].entries()) {
            const raw = delivery(i);
            const res = await agentFor(flood)
              .post('/webhooks/facebook')
              .set('content-type', 'application/json')
              .set('x-hub-signature-256', isSigned ? signatureOf(raw) : `sha256=${'0'.repeat(64)}`)
              .send(raw);
            expect(res.status).toBe(isSigned ? 200 : res.status === 429 ? 429 : 403);
          }
        } finally {
          await flood.close();
        }
      }),
      { numRuns: 5, seed: 31 },
    );
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
