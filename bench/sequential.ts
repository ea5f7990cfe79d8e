/**
 * CPU per request of requests sent one at a time (no concurrency, so no queueing: each process's own work),
 * for the rows that compare two processes: batches alternate between the sides and each side's figure is the
 * median of its batches, so a slow spell of the shared machine moves a batch or two of both, not the result.
 */
import type { Child } from '../test/support/processes';
import { cpuUs, median } from './shared';

/** What one side is asked for: the process whose CPU counts, and the request. */
export interface Side {
  child: Child;
  url: string;
  headers?: Record<string, string>;
  /** The status every answer must have (a redirect is not followed). */
  status: number;
}

/** Batches per side and requests per batch: about 3,000 requests a side, a few seconds each at L=0. */
export const BATCHES = 15;
export const PER_BATCH = 200;

/** The process's CPU per request in µs over `n` requests sent one at a time. */
export async function cpuPerRequest(side: Side, n: number): Promise<number> {
  const before = cpuUs(side.child);
  for (let i = 0; i < n; i++) {
    const res = await fetch(side.url, { headers: side.headers ?? {}, redirect: 'manual' });
    await res.arrayBuffer();
    if (res.status !== side.status) throw new Error(`${side.url}: expected ${side.status}, got ${res.status}`);
  }
  return (cpuUs(side.child) - before) / n;
}

/**
 * Two sides' CPU per request in alternating batches, after a warm-up of one batch each (the JIT, the caches):
 * each side's median in µs, and their ratio (`a` over `b`) as the median of the batches' ratios, as
 * `roundRatio` takes it for the slices (bench/shared.ts): a batch of each side, one right after the other, shares
 * a spell of the machine, so their ratio cancels it where two medians taken apart would not.
 */
export async function alternate(
  a: Side,
  b: Side,
  batches = BATCHES,
  perBatch = PER_BATCH,
): Promise<{ a: number; b: number; ratio: number }> {
  for (const side of [a, b]) await cpuPerRequest(side, perBatch);
  const figures = { a: [] as number[], b: [] as number[] };
  for (let n = 0; n < batches; n++) {
    // Turn about, so neither side always runs after the other.
    for (const k of n % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const))
      figures[k].push(await cpuPerRequest(k === 'a' ? a : b, perBatch));
  }
  return {
    a: median(figures.a),
    b: median(figures.b),
    ratio: median(figures.a.map((x, n) => x / figures.b[n]!)),
  };
}
