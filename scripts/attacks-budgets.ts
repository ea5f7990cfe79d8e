/**
 * The attacks on what one session may take from the others (docs/architecture.md#fairness-between-sessions and
 * #bounded-share): provider calls past its requests a minute, and the shared cache. Part of
 * `npm run report:reliability`; every figure a ratio to the same measure without the attack.
 */
import { SEED_IDS, TEST_SEED } from '@pagelight/graph-emulator';
import { MemoryPageCache } from '../src/cache/memory-page-cache';
import { connectedClient } from '../test/support/login';
import type { Stack } from '../test/support/stack';
import type { Row } from './attacks';

const BAKERY = SEED_IDS.pages.bakery;
const ADA = SEED_IDS.users.ada;
const feed = TEST_SEED.pages.find((p) => p.id === BAKERY)!.feed;

/**
 * One session sends `each` requests of each kind that reads the post page upstream: later pages of comments,
 * a comment's replies, posts not yet cached. At most `limit` of them may be served (the picker and page on the
 * way in take their share too), and the provider sees no more calls than the served requests make. Another
 * session's post view is served throughout.
 */
export async function postPageBudget(base: string, stack: Stack, limit: number, each: number): Promise<Row> {
  const noisy = await connectedClient(base, BAKERY, ADA);
  const quiet = await connectedClient(base, BAKERY, ADA);
  const story = `/pages/${BAKERY}/posts/${feed[5]!.id}`;
  const first = await (await quiet.get(story)).text();
  const more = /rel="next" href="([^"]+)"/.exec(first)![1]!.replace(/&amp;/g, '&').replace(/#.*/, '');
  const thread = /href="([^"]*\?replies=[^"#]+)/.exec(
    await (await quiet.get(`/pages/${BAKERY}/posts/${feed[0]!.id}`)).text(),
  );
  const kinds: [string, (i: number) => string][] = [
    ['later comments', () => more],
    ['replies', () => thread![1]!.replace(/&amp;/g, '&')],
    ['uncached posts', (i) => `/pages/${BAKERY}/posts/${feed[i % feed.length]!.id}`],
  ];
  const calls = () => stack.emulator.controls.calls();
  const before = calls();
  const served: string[] = [];
  let lost = 0;
  for (const [name, url] of kinds) {
    let ok = 0;
    for (let i = 0; i < each; i++) {
      const res = await noisy.get(url(i));
      await res.arrayBuffer();
      if (res.status === 200) ok++;
    }
    served.push(`${name} ${ok}/${each}`);
    if ((await quiet.get(`/pages/${BAKERY}/posts/${feed[1]!.id}`)).status !== 200) lost++;
  }
  const upstream = calls() - before;
  const admitted = served.reduce((n, s) => n + Number(/ (\d+)\//.exec(s)![1]), 0);
  // The quiet session's own views in between are upstream reads too (no cache here): three, at most three calls each.
  const failures = (admitted > limit ? 1 : 0) + (upstream > 3 * (limit + kinds.length) ? 1 : 0);
  return {
    check: `post page budget (${kinds.length} × ${each} upstream reads)`,
    tried: kinds.length * each,
    failures,
    lost,
    note: `served ${served.join(', ')} (limit ${limit}); provider calls per attack request ${(upstream / (kinds.length * each)).toFixed(2)}`,
  };
}

/**
 * One session views 720 distinct posts (3 entries each) in a cache of 2,000 that holds another person's 300
 * entries: what the other person still finds, as a ratio to the same cache without the attack (1.00 = nothing
 * pushed out), and the attacker's share of the cache.
 */
export async function cacheShare(): Promise<Row> {
  const posts = 720;
  const kept = async (attack: boolean): Promise<{ kept: number; attacker: number }> => {
    const cache = new MemoryPageCache({ ttlSec: 60 });
    const mine = Array.from({ length: 300 }, (_, i) => [`page-${i % 10}`, `post-${i}`] as const);
    for (const [page, post] of mine)
      await cache.get(page, 'post', post, () => Promise.resolve({ id: post }), { session: 'quiet' });
    if (attack)
      for (let i = 0; i < posts; i++)
        for (const part of ['post', 'comments', 'insights'] as const)
          await cache.get(`noisy-${i % 50}`, part, `p${i}`, () => Promise.resolve({ id: `p${i}` }), {
            session: 'noisy',
          });
    // What the other person would be served without a call: their entries still in the cache.
    const held = new Set(cache.entries().map(({ key }) => key));
    const found = mine.filter(([page, post]) => held.has(`${page}\u0000post\u0000${post}`)).length;
    const attacker = cache.entries().filter(({ key }) => key.startsWith('noisy-')).length;
    return { kept: found, attacker };
  };
  const quietRun = await kept(false);
  const attacked = await kept(true);
  const ratio = attacked.kept / quietRun.kept;
  const share = attacked.attacker / 2000;
  return {
    check: `shared cache share (one session, ${posts} posts)`,
    tried: posts,
    failures: (ratio < 0.99 ? 1 : 0) + (share > 0.25 ? 1 : 0),
    lost: 0,
    note: `another person's entries kept ${ratio.toFixed(2)} of a run without the attack; attacker holds ${(share * 100).toFixed(0)} % of the cache (bound 25 %)`,
  };
}
