import { AccountsCache } from '../../src/cache/accounts';
import type { PageList } from '../../src/graph/schemas';

/** A list of `count` Pages with long names, as a hostile provider could answer for one person. */
const longList = (count: number, person: number): PageList => ({
  pages: Array.from({ length: count }, (_, i) => ({
    id: String(1600000000000001 + i),
    name: `${person} ${'n'.repeat(200)}`,
  })),
  cut: false,
});

/** docs/operations.md#security-notes: the lists of Pages kept for the picker hold a bounded number of bytes. */
describe('the accounts cache in bytes', () => {
  it('when many people list many long-named Pages, then the lists kept hold no more than the bound in all', async () => {
    const maxBytes = 1_000_000;
    const cache = new AccountsCache(60, 10_000, maxBytes);
    for (let person = 0; person < 40; person++)
      await cache.get(`token-${person}`, () => Promise.resolve(longList(2000, person)));
    const kept = cache.entries();
    expect(kept.length).toBeGreaterThan(0);
    expect(JSON.stringify(kept.map((e) => e.pages)).length).toBeLessThanOrEqual(maxBytes);
    // The newest list is at hand: the bound pushes the oldest out, not the one just fetched.
    expect(cache.peek('token-39')?.pages).toHaveLength(2000);
  });

  it('when one list alone is larger than the bound, then it is served once and not kept', async () => {
    const cache = new AccountsCache(60, 10_000, 10_000);
    const list = await cache.get('token', () => Promise.resolve(longList(2000, 1)));
    expect(list.pages).toHaveLength(2000);
    expect(cache.entries()).toEqual([]);
  });
});
