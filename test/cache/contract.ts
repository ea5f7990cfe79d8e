import type { PageCacheStore } from '../../src/cache/page-cache';

/** What the contract needs of one implementation. */
export interface ContractSubject {
  /** A new, empty cache with this TTL, reading time from `now`; `shareEntries`: what one Page or session may hold. */
  make(options: { ttlSec: number; now: () => number; shareEntries?: number }): PageCacheStore;
  /** Resolves once what the cache set going has been written (the shared cache writes behind its answers). */
  written(): Promise<void>;
}

const TTL_SEC = 60;
const TTL_MS = TTL_SEC * 1000;

/** A load the test finishes by hand; `started` resolves when the cache called it. */
function deferred<T>(): {
  load: () => Promise<T>;
  started: Promise<void>;
  finish: (value: T) => void;
  calls: () => number;
} {
  let finish!: (value: T) => void;
  let begin!: () => void;
  let calls = 0;
  const started = new Promise<void>((resolve) => (begin = resolve));
  const answer = new Promise<T>((resolve) => (finish = resolve));
  return {
    load: () => {
      calls++;
      begin();
      return answer;
    },
    started,
    finish,
    calls: () => calls,
  };
}

/** A load that must not run: the answer has to come from the cache. */
const cached = (): Promise<never> => Promise.reject(new Error('loaded, but the cache should have answered'));

/**
 * The behaviour every page cache has (docs/architecture.md#page-cache): the memory cache and the one shared
 * in Redis pass the same suite.
 */
export function pageCacheContract(name: string, subject: ContractSubject, run: jest.Describe = describe): void {
  run(`${name}: the page cache contract`, () => {
    let clock = 1_700_000_000_000;
    const now = () => clock;
    const cache = (ttlSec = TTL_SEC) => subject.make({ ttlSec, now });
    beforeEach(() => {
      clock += 24 * 3600 * 1000;
    });

    it('when an answer is cached, then the next get returns it without loading', async () => {
      const c = cache();
      const load = jest.fn(async () => ({ id: '1', about: 'x' }));
      await c.get('1', 'details', 'f', load);
      await subject.written();
      expect(await c.get('1', 'details', 'f', load)).toEqual({ id: '1', about: 'x' });
      expect(load).toHaveBeenCalledTimes(1);
      expect([c.hits, c.misses]).toEqual([1, 1]);
    });

    it('when pages, parts or variants differ, then they are cached apart', async () => {
      const c = cache();
      await c.get('1', 'details', 'f', async () => 'a');
      await subject.written();
      expect(await c.get('2', 'details', 'f', async () => 'b')).toBe('b');
      expect(await c.get('1', 'feed', 'f', async () => 'c')).toBe('c');
      expect(await c.get('1', 'details', 'g', async () => 'd')).toBe('d');
      expect(await c.get('1', 'details', 'f', cached)).toBe('a');
    });

    it('when the TTL is 0, then nothing is kept', async () => {
      const c = cache(0);
      const load = jest.fn(async () => 'v');
      await c.get('1', 'details', 'f', load);
      await subject.written();
      await c.get('1', 'details', 'f', load);
      expect(c.enabled).toBe(false);
      expect(load).toHaveBeenCalledTimes(2);
    });

    it('when the TTL has passed, then the answer is loaded again', async () => {
      const c = cache();
      await c.get('1', 'details', 'f', async () => 'old');
      await subject.written();
      clock += TTL_MS;
      expect(await c.get('1', 'details', 'f', async () => 'new')).toBe('new');
    });

    it('when a refresh loads, then it always loads, and its answer is what the next get serves', async () => {
      const c = cache();
      await c.get('1', 'feed', 'first', async () => 'old');
      await subject.written();
      const load = jest.fn(async () => 'new');
      expect(await c.get('1', 'feed', 'first', load, { refresh: true })).toBe('new');
      await subject.written();
      expect(load).toHaveBeenCalledTimes(1);
      expect(await c.get('1', 'feed', 'first', cached)).toBe('new');
    });

    it('when a load fails, then the error reaches the caller and nothing is kept', async () => {
      const c = cache();
      await expect(c.get('1', 'details', 'f', () => Promise.reject(new Error('190')))).rejects.toThrow('190');
      await subject.written();
      expect(await c.get('1', 'details', 'f', async () => 'v')).toBe('v');
    });

    it("when a page is dropped, then its parts load again and other pages' answers stay", async () => {
      const c = cache();
      await c.get('1', 'details', 'f', async () => 'a');
      await c.get('1', 'feed', 'first', async () => 'b');
      await c.get('2', 'details', 'f', async () => 'c');
      await subject.written();
      c.dropPage('1');
      await subject.written();
      expect(await c.get('1', 'details', 'f', async () => 'a2')).toBe('a2');
      expect(await c.get('1', 'feed', 'first', async () => 'b2')).toBe('b2');
      expect(await c.get('2', 'details', 'f', cached)).toBe('c');
    });

    it('when a part is dropped, then only that part loads again', async () => {
      const c = cache();
      await c.get('1', 'details', 'f', async () => 'a');
      await c.get('1', 'feed', 'first', async () => 'b');
      await subject.written();
      c.dropPart('1', 'feed');
      await subject.written();
      expect(await c.get('1', 'feed', 'first', async () => 'b2')).toBe('b2');
      expect(await c.get('1', 'details', 'f', cached)).toBe('a');
    });

    it("when one entry is dropped, then the page's other variants and parts stay", async () => {
      const c = cache();
      await c.get('1', 'details', 'f narrow', async () => 'a');
      await c.get('1', 'details', 'f full', async () => 'b');
      await c.get('1', 'feed', 'first full', async () => 'c');
      await subject.written();
      c.dropEntry('1', 'details', 'f narrow');
      await subject.written();
      expect(await c.get('1', 'details', 'f full', cached)).toBe('b');
      expect(await c.get('1', 'feed', 'first full', cached)).toBe('c');
      expect(await c.get('1', 'details', 'f narrow', async () => 'x')).toBe('x');
    });

    it('when a page is dropped while its load is under way, then that load does not refill the cache', async () => {
      const c = cache();
      const slow = deferred<string>();
      const pending = c.get('1', 'details', 'f', slow.load);
      await slow.started;
      c.dropPage('1');
      slow.finish('stale');
      expect(await pending).toBe('stale');
      await subject.written();
      expect(await c.get('1', 'details', 'f', async () => 'fresh')).toBe('fresh');
    });

    it("when page A is dropped while page B's load is under way, then B's answer is still kept", async () => {
      const c = cache();
      const slow = deferred<string>();
      const pending = c.get('B', 'feed', 'first', slow.load);
      await slow.started;
      for (let i = 0; i < 5; i++) c.dropPage('A');
      c.dropPart('A', 'feed');
      slow.finish('b');
      expect(await pending).toBe('b');
      await subject.written();
      expect(await c.get('B', 'feed', 'first', cached)).toBe('b');
    });

    describe('a live page (webhooks subscribed)', () => {
      const live = { live: true };

      it('when its answer is past the TTL, then it is served stale while one refresh runs, and the refreshed answer after', async () => {
        const c = cache();
        await c.get('1', 'feed', 'first', async () => 'old', live);
        await subject.written();
        clock += TTL_MS * 2;
        const refresh = deferred<string>();
        expect(await c.get('1', 'feed', 'first', refresh.load, live)).toBe('old');
        await refresh.started;
        // A second view meanwhile: the same stale answer, and no second refresh.
        expect(await c.get('1', 'feed', 'first', refresh.load, live)).toBe('old');
        expect(refresh.calls()).toBe(1);
        refresh.finish('new');
        // The refresh ends in the background: the views keep the stale answer until it is kept.
        let seen = 'old';
        for (let i = 0; i < 200 && seen === 'old'; i++) {
          await subject.written();
          seen = await c.get('1', 'feed', 'first', refresh.load, live);
        }
        expect(seen).toBe('new');
        expect(refresh.calls()).toBe(1);
      });

      it('when its answer is past the stale window, then the view loads and waits', async () => {
        const c = cache();
        await c.get('1', 'feed', 'first', async () => 'old', live);
        await subject.written();
        clock += TTL_MS * 10;
        expect(await c.get('1', 'feed', 'first', async () => 'new', live)).toBe('new');
      });

      it('when a page that is not live is past the TTL, then it is never served stale', async () => {
        const c = cache();
        await c.get('1', 'feed', 'first', async () => 'old', live);
        await subject.written();
        clock += TTL_MS * 2;
        expect(await c.get('1', 'feed', 'first', async () => 'new')).toBe('new');
      });
    });

    describe('the bounded share (docs/architecture.md#bounded-share)', () => {
      const SHARE = 3;
      const shared = () => subject.make({ ttlSec: TTL_SEC, now, shareEntries: SHARE });
      const store = async (c: PageCacheStore, page: string, variant: string, session: string) => {
        await c.get(page, 'post', variant, async () => `${page}/${variant}`, { session });
        await subject.written();
      };
      const isCached = async (c: PageCacheStore, page: string, variant: string) => {
        let loaded = false;
        await c.get(page, 'post', variant, async () => {
          loaded = true;
          return 'loaded again';
        });
        return !loaded;
      };

      it("when one session stores more than its share, then at most its share is kept and another session's entry stays", async () => {
        const c = shared();
        await store(c, 'other', 'warm', 'quiet');
        for (let i = 0; i < SHARE + 2; i++) await store(c, `page-${i}`, 'p', 'noisy');
        expect(await isCached(c, 'other', 'warm')).toBe(true);
        const kept: boolean[] = [];
        for (let i = 0; i < SHARE + 2; i++) kept.push(await isCached(c, `page-${i}`, 'p'));
        expect(kept.filter(Boolean)).toHaveLength(SHARE);
      });

      it("when one Page's entries pass its share, then that Page's oldest go and another Page's stay", async () => {
        const c = shared();
        await store(c, 'other', 'warm', 'one');
        for (let i = 0; i < SHARE + 2; i++) await store(c, 'busy', `post-${i}`, `session-${i}`);
        expect(await isCached(c, 'other', 'warm')).toBe(true);
        expect(await isCached(c, 'busy', 'post-0')).toBe(false);
        expect(await isCached(c, 'busy', `post-${SHARE + 1}`)).toBe(true);
      });
    });
  });
}
