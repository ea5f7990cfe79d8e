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

/** Each side's median CPU per request in µs, after a warm-up of one batch each (the JIT, the caches). */
export async function alternate(sides: Side[], batches = BATCHES, perBatch = PER_BATCH): Promise<number[]> {
  for (const side of sides) await cpuPerRequest(side, perBatch);
  const figures: number[][] = sides.map(() => []);
  for (let b = 0; b < batches; b++) {
    // Turn about, so neither side always runs after the other.
    const order = b % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => sides.length - 1 - i);
    for (const i of order) figures[i]!.push(await cpuPerRequest(sides[i]!, perBatch));
  }
  return figures.map(median);
}
