import { ConfigError, loadConfig } from '../../src/config';
import { MemoryPageCache } from '../../src/cache/memory-page-cache';

const later = <T>(value: T, ms = 20) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('MemoryPageCache', () => {
  it('when an answer is cached, then the next get returns it without loading', async () => {
    const cache = new MemoryPageCache({ ttlSec: 60 });
    const load = jest.fn(async () => ({ id: '1', about: 'x' }));
    await cache.get('1', 'details', 'f', load);
    const again = await cache.get('1', 'details', 'f', load);
    expect(again).toEqual({ id: '1', about: 'x' });
    expect(load).toHaveBeenCalledTimes(1);
    expect([cache.hits, cache.misses]).toEqual([1, 1]);
  });

  it('when pages, parts or variants differ, then they are cached apart', async () => {
    const cache = new MemoryPageCache({ ttlSec: 60 });
    await cache.get('1', 'details', 'f', async () => 'a');
    expect(await cache.get('2', 'details', 'f', async () => 'b')).toBe('b');
    expect(await cache.get('1', 'feed', 'f', async () => 'c')).toBe('c');
    expect(await cache.get('1', 'details', 'g', async () => 'd')).toBe('d');
    expect(cache.size).toBe(4);
  });

  it('when the TTL is 0, then nothing is kept', async () => {
    const cache = new MemoryPageCache({ ttlSec: 0 });
    const load = jest.fn(async () => 'v');
    await cache.get('1', 'details', 'f', load);
    await cache.get('1', 'details', 'f', load);
    expect(cache.enabled).toBe(false);
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });

  it('when the TTL has passed, then the answer is loaded again', async () => {
    const cache = new MemoryPageCache({ ttlSec: 1 });
    const load = jest.fn(async () => 'v');
    await cache.get('1', 'details', 'f', load);
    await later(null, 1100);
    await cache.get('1', 'details', 'f', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('when answers exceed the byte budget, then the least recently used are evicted and the total stays within it', async () => {
    // One Page may hold the whole budget here: this is the LRU's bound, not the share's.
    const cache = new MemoryPageCache({ ttlSec: 60, maxBytes: 1000, shareBytes: 1000 });
    const blob = (n: number) => ({ n, text: 'x'.repeat(380) });
    for (let i = 0; i < 5; i++) await cache.get(String(i), 'details', 'f', async () => blob(i));
    expect(cache.bytes).toBeLessThanOrEqual(1000);
    expect(cache.size).toBe(2);
    const load = jest.fn(async () => blob(0));
    await cache.get('0', 'details', 'f', load);
    expect(load).toHaveBeenCalledTimes(1);
    const kept = jest.fn(async () => blob(4));
    await cache.get('4', 'details', 'f', kept);
    expect(kept).not.toHaveBeenCalled();
  });

  it('when an answer is bigger than the whole budget, then it is returned but not kept', async () => {
    const cache = new MemoryPageCache({ ttlSec: 60, maxBytes: 100 });
    expect(await cache.get('1', 'feed', 'f', async () => 'y'.repeat(500))).toHaveLength(500);
    expect(cache.size).toBe(0);
  });

  it('when there are more entries than allowed, then the oldest go', async () => {
    const cache = new MemoryPageCache({ ttlSec: 60, maxEntries: 3 });
    for (let i = 0; i < 10; i++) await cache.get(String(i), 'details', 'f', async () => i);
    expect(cache.size).toBe(3);
  });

  it('when a page is dropped, then only its entries go', async () => {
    const cache = new MemoryPageCache({ ttlSec: 60 });
    await cache.get('1', 'details', 'f', async () => 'a');
    await cache.get('1', 'feed', 'first', async () => 'b');
    await cache.get('2', 'details', 'f', async () => 'c');
    cache.dropPage('1');
    expect(cache.size).toBe(1);
    const load = jest.fn(async () => 'c');
    await cache.get('2', 'details', 'f', load);
    expect(load).not.toHaveBeenCalled();
  });

  it("when one entry is dropped, then the page's other variants and parts stay", async () => {
    const cache = new MemoryPageCache({ ttlSec: 60 });
    await cache.get('1', 'details', 'f narrow', async () => 'a');
    await cache.get('1', 'details', 'f full', async () => 'b');
    await cache.get('1', 'feed', 'first full', async () => 'c');
    cache.dropEntry('1', 'details', 'f narrow');
    expect(cache.size).toBe(2);
    const load = jest.fn(async () => 'x');
    expect(await cache.get('1', 'details', 'f full', load)).toBe('b');
    expect(await cache.get('1', 'feed', 'first full', load)).toBe('c');
    expect(await cache.get('1', 'details', 'f narrow', load)).toBe('x');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('when an entry is dropped while another load is under way, then that load is still kept', async () => {
    const cache = new MemoryPageCache({ ttlSec: 60 });
    const pending = cache.get('2', 'feed', 'first full', () => later('b'));
    cache.dropEntry('1', 'feed', 'first narrow');
    expect(await pending).toBe('b');
    const load = jest.fn(async () => 'x');
    expect(await cache.get('2', 'feed', 'first full', load)).toBe('b');
    expect(load).not.toHaveBeenCalled();
  });

  it('when a page is dropped while a load is under way, then that load does not refill the cache', async () => {
    const cache = new MemoryPageCache({ ttlSec: 60 });
    const pending = cache.get('1', 'details', 'f', () => later('stale'));
    cache.dropPage('1');
    expect(await pending).toBe('stale');
    expect(cache.size).toBe(0);
  });

  it('when a load fails, then nothing is cached and the error reaches the caller', async () => {
    const cache = new MemoryPageCache({ ttlSec: 60 });
    await expect(cache.get('1', 'details', 'f', async () => Promise.reject(new Error('190')))).rejects.toThrow('190');
    expect(cache.size).toBe(0);
  });
});

describe('PAGE_CACHE_TTL', () => {
  const env = { FB_APP_ID: '1', FB_APP_SECRET: 'a-secret-value', SESSION_SECRET: 's'.repeat(32) };

  it('when unset, then 60 seconds', () => {
    expect(loadConfig(env).pageCacheTtlSec).toBe(60);
  });

  it('when 0 or 86400, then accepted', () => {
    expect(loadConfig({ ...env, PAGE_CACHE_TTL: '0' }).pageCacheTtlSec).toBe(0);
    expect(loadConfig({ ...env, PAGE_CACHE_TTL: '86400' }).pageCacheTtlSec).toBe(86400);
  });

  it.each(['-1', '1.5', 'soon', '86401'])('when %s, then a one-line error naming the variable', (value) => {
    expect(() => loadConfig({ ...env, PAGE_CACHE_TTL: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, PAGE_CACHE_TTL: value })).toThrow(
      /^PAGE_CACHE_TTL: must be a whole number from 0 to 86400, got "/,
    );
  });
});
