import { createHmac } from 'node:crypto';
import { appSecretProof } from '../../src/graph/proof';

describe('appsecret_proof', () => {
  it('when computed, then it is the lowercase hex HMAC-SHA256 of the token keyed by the secret', () => {
    const expected = createHmac('sha256', 'secret').update('EAAtoken').digest('hex');
    expect(appSecretProof('EAAtoken', 'secret')).toBe(expected);
    expect(appSecretProof('EAAtoken', 'secret')).toMatch(/^[0-9a-f]{64}$/);
  });
});
