import { createHmac } from 'node:crypto';
import zlib from 'node:zlib';
import { agentFor, APP_SECRET, useStack } from '../support/stack';

const VERIFY_TOKEN = 'verify-token-for-tests-0001';

/**
 * The provider sends deliveries as plain JSON. A compressed body is nobody's delivery: it is refused on the
 * bytes as received, before anything is decompressed or parsed (docs/architecture.md#live-updates).
 */
describe('POST /webhooks/facebook with a compressed body', () => {
  const stack = useStack({ env: { FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN } });

  // 8 MB of zeros: a few kilobytes on the wire.
  const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024));

  it.each([
    ['unsigned', undefined],
    ['signed over the compressed bytes', `sha256=${createHmac('sha256', APP_SECRET).update(bomb).digest('hex')}`],
  ])('when it is %s, then 415, before the body is read or decompressed', async (_how, signature) => {
    let req = agentFor(stack)
      .post('/webhooks/facebook')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip');
    if (signature) req = req.set('x-hub-signature-256', signature);
    const res = await req.send(bomb).expect(415);
    expect(res.body).toEqual({ error: 'bad request' });
  });
});
