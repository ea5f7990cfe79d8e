/**
 * What watching the app costs a warm view: metrics on against off, and one access-log line per request
 * against none (docs/operations.md#metrics, docs/performance.md#targets). Two apps, the same cache and sessions,
 * measured in alternating slices like the warm view and its floor; the figure is CPU per view, read from /proc (schedstat).
 */
import { control } from '../test/support/emulator';
import { freePort } from '../test/support/processes';
import { cpuUs, load, log, loginSessions, startApp, stopChild, type Bench, type Load, type Row } from './shared';

/** Metrics may add at most this much CPU per warm view. */
export const METRICS_COST = 1.05;

interface Side {
  name: string;
  env: Record<string, string>;
}

/**
 * CPU per warm view of `b` over `a`'s, from alternating slices of the same load. The provider knows one
 * callback address, so each slice starts its side's app on the bench's app port and logs its sessions in.
 */
async function warmCostRatio(bench: Bench, a: Side, b: Side): Promise<{ ratio: number; a: number; b: number }> {
  const { opts } = bench;
  const slices = Math.max(1, opts.slices);
  const slice = { ...opts, duration: Math.max(1, Math.round(opts.duration / slices)) };
  const cpu = [0, 0];
  const views = [0, 0];
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: opts.latency });
  for (let s = 0; s < slices; s++) {
    for (const [i, side] of [a, b].entries()) {
      const app = await startApp(bench, 60, side.name, side.env);
      const cookies = await loginSessions(bench.appUrl, opts.sessions);
      // Warm the cache first: the ratio is about warm views, not the first reads.
      await load(bench.appUrl, cookies, { ...opts, duration: 1 });
      const before = cpuUs(app);
      const run: Load = await load(bench.appUrl, cookies, slice);
      cpu[i]! += (cpuUs(app) - before) / 1000;
      views[i]! += run.requests;
      await stopChild(bench, app);
    }
  }
  await control(bench.emulatorUrl, 'POST', '/latency', { ms: 0 });
  const perView = [0, 1].map((i) => cpu[i]! / views[i]!);
  return { ratio: perView[1]! / perView[0]!, a: perView[0]!, b: perView[1]! };
}

const µs = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

export async function observeCost(bench: Bench): Promise<Row[]> {
  log('observe: warm views with metrics on and off, then access logs all and off, alternating');
  const metrics = await warmCostRatio(
    bench,
    { name: 'metrics off', env: {} },
    { name: 'metrics on', env: { METRICS_PORT: String(await freePort()) } },
  );
  const logs = await warmCostRatio(
    bench,
    { name: 'logs off', env: { LOG_REQUESTS: 'off' } },
    { name: 'logs all', env: { LOG_REQUESTS: 'all' } },
  );
  return [
    {
      scenario: 'metrics: app CPU per warm view, METRICS_PORT set ÷ unset',
      result: `${metrics.ratio.toFixed(2)} (${µs(metrics.b)} ÷ ${µs(metrics.a)})`,
      figures: { metricsRatio: metrics.ratio, onMs: metrics.b, offMs: metrics.a },
      target: `≤ ${METRICS_COST.toFixed(2)}`,
      pass: metrics.ratio <= METRICS_COST,
    },
    {
      scenario: 'access logs: app CPU per warm view, LOG_REQUESTS=all ÷ off',
      result: `${logs.ratio.toFixed(2)} (${µs(logs.b)} ÷ ${µs(logs.a)})`,
      figures: { logsRatio: logs.ratio, allMs: logs.b, offMs: logs.a },
      target: 'stated',
    },
  ];
}
