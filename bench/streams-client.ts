/**
 * The streams scenario's client (bench/live.ts): opens STREAMS_COUNT event streams on STREAMS_URL, the sessions of
 * STREAMS_COOKIES (a JSON list of Cookie headers) taken in turn, 100 at a time, and keeps them open until SIGTERM.
 * Prints `open <n> failed <m>` once every stream has answered (its first bytes, or a refusal).
 */
import http from 'node:http';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const url = required('STREAMS_URL');
const cookies = JSON.parse(required('STREAMS_COOKIES')) as string[];
const count = Number(required('STREAMS_COUNT'));
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
let open = 0;
let failed = 0;

function one(i: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get(
      url,
      { agent, headers: { cookie: cookies[i % cookies.length]!, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          failed++;
          process.stderr.write(`stream ${i}: ${res.statusCode}\n`);
          res.resume();
          return resolve();
        }
        res.once('data', () => {
          open++;
          resolve();
        });
        res.resume();
      },
    );
    req.on('error', (err) => {
      failed++;
      process.stderr.write(`stream ${i}: ${err.message}\n`);
      resolve();
    });
  });
}

async function main(): Promise<void> {
  for (let done = 0; done < count; done += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - done) }, (_, k) => one(done + k)));
  }
  process.stdout.write(`open ${open} failed ${failed}\n`);
  process.on('SIGTERM', () => process.exit(0));
  setInterval(() => {}, 60_000);
}

main().catch((err: unknown) => {
  process.stderr.write(`streams client: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
