/**
 * `tsx bench/post-forms.ts`: how long the post page's reads take, cold, in each form a new app may use, against the
 * emulator with latency L per round trip and the app's per-session share of concurrent reads
 * (SESSION_UPSTREAM_CONCURRENCY, default 4): the one synchronous batch (the post and a `reactions` read per kind)
 * beside the first comments, or the post, each kind and the comments as parallel reads; and, for an app created
 * before 2026-11-04, the aliased read the app used to make. Sequential views, one session: the figure is the
 * round trips a view waits for. Why the post page reads a batch: docs/performance.md#post-page.
 *
 * Env: L (ms, default 50), VIEWS (default 40), SHARE (default 4).
 */
import { startEmulator, DEFAULT_SEED, SEED_IDS } from '@pagelight/graph-emulator';
import { ConcurrentReadLimit } from '../src/pages/fairness';

const L = Number(process.env.L ?? 50);
const VIEWS = Number(process.env.VIEWS ?? 40);
const SHARE = Number(process.env.SHARE ?? 4);
const KINDS = ['LIKE', 'LOVE', 'CARE', 'HAHA', 'WOW', 'SAD', 'ANGRY'];
const CLIENT = { clientId: '1', clientSecret: 'bench-secret', redirectUri: 'http://app.test/cb', name: 'bench' };

async function main(): Promise<void> {
  const emulator = await startEmulator({ clients: [CLIENT], port: 0, seed: 'demo' });
  const bakery = SEED_IDS.pages.bakery;
  const post = DEFAULT_SEED.pages.find((p) => p.id === bakery)!.feed[2]!.id;
  const page = emulator.controls.issueToken({ userId: SEED_IDS.users.ada, pageId: bakery }).access_token;
  const shares = new ConcurrentReadLimit(SHARE);
  const base = `${emulator.url}/v27.0`;
  const auth = { authorization: `Bearer ${page}` };
  const get = (path: string) =>
    shares.run('s', async () => {
      const res = await fetch(`${base}/${path}`, { headers: auth });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as unknown;
    });
  const comments = () => get(`${post}/comments?summary=total_count&limit=25`);
  const kindUrl = (k: string) => `${post}/reactions?type=${k}&summary=total_count&limit=0`;
  const forms: Record<string, () => Promise<unknown>> = {
    'batch + comments': () =>
      Promise.all([
        shares.run('s', async () => {
          const batch = JSON.stringify([
            { method: 'GET', relative_url: `${post}?fields=id,message` },
            ...KINDS.map((k) => ({ method: 'GET', relative_url: kindUrl(k) })),
          ]);
          const res = await fetch(`${base}/`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ batch, include_headers: 'false' }).toString(),
          });
          return (await res.json()) as unknown;
        }),
        comments(),
      ]),
    'per-kind reads + comments': () =>
      Promise.all([get(`${post}?fields=id,message`), ...KINDS.map((k) => get(kindUrl(k))), comments()]),
    'aliases (older app) + comments': () =>
      Promise.all([
        get(
          `${post}?fields=id,message,${KINDS.map((k) => `reactions.type(${k}).limit(0).summary(total_count).as(r_${k})`).join(',')}`,
        ),
        comments(),
      ]),
  };
  try {
    for (const [name, view] of Object.entries(forms)) {
      emulator.controls.setAppCreated(name.startsWith('aliases') ? '2026-11-03' : '2026-11-04');
      await view();
      emulator.controls.setLatency(L);
      const times: number[] = [];
      for (let i = 0; i < VIEWS; i++) {
        const started = performance.now();
        await view();
        times.push(performance.now() - started);
      }
      emulator.controls.setLatency(0);
      times.sort((a, b) => a - b);
      const p50 = times[Math.floor(times.length / 2)]!;
      process.stdout.write(
        `${name.padEnd(32)} p50 ${p50.toFixed(1)} ms = ${(p50 / L).toFixed(2)} × L (L=${L} ms, share ${SHARE})\n`,
      );
    }
  } finally {
    await emulator.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`post-forms: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
