/**
 * CPU per request of requests sent one at a time (no concurrency, so no queueing: each process's own work),
 * for the rows that compare two processes: batches alternate between the sides and each side's figure is the
 * median of its batches, so a slow spell of the shared machine moves a batch or two of both, not the result.
 * @see docs/performance.md#one-request-at-a-time
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { Child } from '../test/support/processes';
import { cpuUs, log, median } from './shared';

/** What one side is asked for: the process whose CPU counts, and the request. */
export interface Side {
  child: Child;
  url: string;
  headers?: Record<string, string>;
  /** The status every answer must have (a redirect is not followed). */
  status: number;
}

/**
 * Batches per side and requests per batch: 3,000 requests a side, a few seconds each at L=0. Many short
 * batches: a batch of each side, one right after the other, share a spell of the machine more closely than
 * long ones, and the median of 150 ratios moves less with one slow spell than the median of 15.
 */
export const BATCHES = 150;
export const PER_BATCH = 20;
/**
 * Requests a side before any is measured, in alternating batches. The JIT goes on making both builds cheaper for
 * about 2,500 requests (a warm page view from 2,100 to 950 µs), and not at the same pace on both, so rows
 * measured after a warm-up of 200 measured the warm-up (docs/performance.md#one-request-at-a-time).
 */
export const WARM_UP = 3_000;

/**
 * Both sides' processes on one CPU, the last, every thread (Linux `taskset`), where there are two or more: the
 * bench process, which sends the requests, is left the others. Left to the scheduler, a process shared
 * its core with the sender in some runs and not in others, and two processes of one build read up to 11 % apart
 * for a whole run; pinned, 0.975–1.03 (docs/performance.md#one-request-at-a-time). Without `taskset` the processes
 * are left where they are, and the bench says so; on one CPU there is no other to leave the sender.
 */
function pinSides(sides: Side[]): void {
  const cpus = os.availableParallelism();
  if (cpus < 2) return;
  try {
    for (const side of sides) execFileSync('taskset', ['-a', '-cp', String(cpus - 1), String(side.child.proc.pid)]);
  } catch (err) {
    log(
      `one request at a time: processes not pinned to one CPU (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`,
    );
  }
}

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
 * Two sides' CPU per request in alternating batches, after WARM_UP requests each (the JIT, the caches), both
 * pinned to one CPU (pinSides):
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
  pinSides([a, b]);
  const warmUp = Math.ceil(WARM_UP / perBatch);
  const figures = { a: [] as number[], b: [] as number[] };
  for (let n = 0; n < warmUp + batches; n++) {
    // Turn about, so neither side always runs after the other.
    for (const k of n % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
      const perRequest = await cpuPerRequest(k === 'a' ? a : b, perBatch);
      if (n >= warmUp) figures[k].push(perRequest);
    }
  }
  return {
    a: median(figures.a),
    b: median(figures.b),
    ratio: median(figures.a.map((x, n) => x / figures.b[n]!)),
  };
}
