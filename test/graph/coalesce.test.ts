import { InFlight, readKey } from '../../src/graph/coalesce';

const later = <T>(value: T, ms = 20) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('InFlight (request coalescing)', () => {
  it('when identical calls overlap, then they share one start and one answer', async () => {
    const inflight = new InFlight();
    const start = jest.fn(() => later({ ok: true }));
    const key = readKey('GET', '/1', { fields: 'a,b' }, 'token-1');
    const answers = await Promise.all([1, 2, 3].map(() => inflight.run(key, start)));
    expect(start).toHaveBeenCalledTimes(1);
    expect(answers[0]).toBe(answers[2]);
    expect(inflight.joined).toBe(2);
    expect(inflight.size).toBe(0);
  });

  it('when calls do not overlap, then each starts its own', async () => {
    const inflight = new InFlight();
    const start = jest.fn(() => later(1, 1));
    await inflight.run('k', start);
    await inflight.run('k', start);
    expect(start).toHaveBeenCalledTimes(2);
  });

  it('when the shared call fails, then every caller gets the error and the next call starts afresh', async () => {
    const inflight = new InFlight();
    const failing = () => later(null).then(() => Promise.reject(new Error('down')));
    const results = await Promise.allSettled([inflight.run('k', failing), inflight.run('k', failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(inflight.run('k', async () => 'up')).resolves.toBe('up');
  });

  it('then the key separates tokens, paths and parameters, ignores parameter order, and holds no raw token', () => {
    const key = readKey('GET', '/1/feed', { limit: '25', after: 'c' }, 'EAAsecret');
    expect(key).toBe(readKey('GET', '/1/feed', { after: 'c', limit: '25' }, 'EAAsecret'));
    expect(key).not.toBe(readKey('GET', '/1/feed', { limit: '25', after: 'c' }, 'EAAother'));
    expect(key).not.toBe(readKey('GET', '/1/feed', { limit: '25', after: 'd' }, 'EAAsecret'));
    expect(key).not.toBe(readKey('GET', '/2/feed', { limit: '25', after: 'c' }, 'EAAsecret'));
    expect(key).not.toContain('EAAsecret');
  });
});
