import { spawn } from 'node:child_process';

/**
 * Another client's burst, from its own process: `paths.length` concurrent GETs
 * with `cookie`, as a noisy browser elsewhere would send them. In-process, the
 * burst's own client work (300 sockets, parsing) would share the event loop
 * with the app and be counted as the app's slowness.
 * `fired` resolves once every request is on its way; `statuses` when all are answered.
 */
export function burstFrom(
  base: string,
  cookie: string,
  paths: string[],
): { fired: Promise<void>; statuses: Promise<number[]> } {
  const script = `
    const { base, cookie, paths } = JSON.parse(process.env.BURST);
    const all = paths.map((p) => fetch(base + p, { headers: { cookie }, redirect: 'manual' }).then(async (r) => { await r.arrayBuffer(); return r.status; }, () => 0));
    process.stdout.write('fired\\n');
    Promise.all(all).then((s) => process.stdout.write(JSON.stringify(s) + '\\n'));
  `;
  const child = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, BURST: JSON.stringify({ base, cookie, paths }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let onFired: () => void = () => undefined;
  const fired = new Promise<void>((resolve) => (onFired = resolve));
  const statuses = new Promise<number[]>((resolve, reject) => {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('fired\n')) onFired();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !last.startsWith('[')) reject(new Error(`burst process exited ${code}`));
      else resolve(JSON.parse(last) as number[]);
    });
  });
  return { fired, statuses };
}
