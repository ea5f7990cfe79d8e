import { spawn } from 'node:child_process';

/** One burst: `fired` resolves once every request is on its way; `statuses` when all are answered. */
export interface Burst {
  fired: Promise<void>;
  statuses: Promise<number[]>;
}

/** Another client that sends bursts: each `fire` sends its paths all at once; `close` ends its process. */
export interface BurstClient {
  fire(paths: string[]): Burst;
  close(): void;
}

/**
 * Another client's bursts, from its own process, as a noisy browser elsewhere would send them, with `cookie`.
 * In-process, the burst's own client work (hundreds of sockets, parsing) would share the event loop with the
 * app and be counted as the app's slowness. The process is started once and its connections kept (node:http,
 * keep-alive, at most `sockets` of them): a burst after the first costs the app its requests, not
 * `sockets` new connections, nor the client a process start. One burst at a time.
 */
export function burstClient(base: string, cookie: string, sockets = 300): BurstClient {
  const script = `
    const http = require('node:http');
    const { base, cookie, sockets } = JSON.parse(process.env.BURST);
    const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
    // A kept connection the server closed while idle is asked again once, as Node's docs advise (reusedSocket).
    const one = (path, again = true) => new Promise((resolve) => {
      const req = http.get(base + path, { agent, headers: { cookie } }, (res) => {
        res.resume().on('end', () => resolve(res.statusCode));
      }).on('error', (err) => {
        if (again && req.reusedSocket && err.code === 'ECONNRESET') resolve(one(path, false));
        else resolve(0);
      });
    });
    let input = '';
    process.stdin.setEncoding('utf8').on('data', (chunk) => {
      input += chunk;
      for (let at; (at = input.indexOf('\\n')) >= 0; ) {
        const paths = JSON.parse(input.slice(0, at));
        input = input.slice(at + 1);
        const all = paths.map(one);
        process.stdout.write('fired\\n');
        Promise.all(all).then((s) => process.stdout.write(JSON.stringify(s) + '\\n'));
      }
    }).on('end', () => { agent.destroy(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, BURST: JSON.stringify({ base, cookie, sockets }) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let waiting: { fired: () => void; answered: (s: number[]) => void; failed: (e: Error) => void } | undefined;
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (let at; (at = out.indexOf('\n')) >= 0;) {
      const line = out.slice(0, at);
      out = out.slice(at + 1);
      if (line === 'fired') waiting?.fired();
      else if (line.startsWith('[')) {
        const done = waiting;
        waiting = undefined;
        done?.answered(JSON.parse(line) as number[]);
      }
    }
  });
  const ended = (err: Error) => waiting?.failed(err);
  child.on('error', ended);
  child.on('close', (code) => ended(new Error(`burst process exited ${code}`)));
  return {
    fire(paths) {
      if (waiting) throw new Error('burstClient: one burst at a time');
      let onFired: () => void = () => undefined;
      const fired = new Promise<void>((resolve) => (onFired = resolve));
      const statuses = new Promise<number[]>((answered, failed) => {
        waiting = { fired: onFired, answered, failed };
      });
      child.stdin.write(`${JSON.stringify(paths)}\n`);
      return { fired, statuses };
    },
    close() {
      child.stdin.end();
    },
  };
}
