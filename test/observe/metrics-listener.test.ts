import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../support/processes';

const ROOT = path.resolve(__dirname, '..', '..');

/** src/server.ts as an operator starts it (through tsx: no build needed), with a provider it never calls here. */
function startServer(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      FB_APP_ID: '1234567890123456',
      FB_APP_SECRET: 'test-app-secret-value-0001',
      FB_AUTH_URL: 'http://127.0.0.1:9',
      FB_GRAPH_URL: 'http://127.0.0.1:9',
      SESSION_SECRET: 'test-session-secret-0123456789abcdef',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
  return { child, output: () => output };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
}

/** docs/operations.md#metrics */
describe('the metrics listener (src/server.ts)', () => {
  it('when METRICS_PORT is set, then /metrics answers there and not on the public port', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const { child, output } = startServer({ PORT: String(port), METRICS_PORT: String(metricsPort) });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', () => (output().includes('metrics on http://127.0.0.1:') ? resolve() : undefined));
        child.once('exit', () => reject(new Error(`the app stopped:\n${output()}`)));
      });
      await (await fetch(`http://127.0.0.1:${port}/privacy`)).text();
      // The request is counted once its answer is closed on the server's side: scrape until it is.
      const counted =
        /pagelight_http_request_duration_seconds_count\{route="\/privacy",method="GET",status_class="2xx"\} 1/;
      let text = '';
      for (let scrape = 0; scrape < 50 && !counted.test(text); scrape++) {
        const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
        expect(res.status).toBe(200);
        text = await res.text();
      }
      expect(text).toMatch(counted);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
      expect(await exitOf(child)).toBe(0);
    }
  });

  it('when METRICS_PORT equals PORT, then the start stops with one line naming METRICS_PORT', async () => {
    const port = await freePort();
    const { child, output } = startServer({ PORT: String(port), METRICS_PORT: String(port) });
    expect(await exitOf(child)).toBe(1);
    expect(output()).toContain('pagelight: configuration error: METRICS_PORT: must differ from PORT');
  });
});
