'use strict';
/**
 * `npm run bench` (issue 5): the emulator and the app as separate processes,
 * sessions logged in through the real flow, then autocannon. Prints one table
 * and writes it as JSON to bench/results/<date>.json and bench/results/latest.json.
 *
 *   node bench/run.js [--latency 50] [--connections 10] [--duration 10] [--sessions 50]
 *                     [--flow-seconds 5] [--flow-concurrency 4] [--memory 10000,100000] [--slices 3] [--profile]
 *
 * Warm view and floor are measured in alternating slices (duration / slices
 * each) so both see the same background load.
 *
 * --profile runs the app under `node --cpu-prof` (profiles in bench/results/profiles/).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const autocannon = require('autocannon');

const ROOT = path.resolve(__dirname, '..');
const RESULTS = path.join(__dirname, 'results');
const APP_ID = '1234567890123456';
const APP_SECRET = 'bench-app-secret-not-for-production';
const SESSION_SECRET = 'bench-session-secret-0123456789abcdef-0123';
const BAKERY = '104735298765432';
const ADA = '100000000000011';

function flags(argv) {
  const out = {
    latency: 50,
    connections: 10,
    duration: 10,
    sessions: 50,
    flowSeconds: 5,
    flowConcurrency: 4,
    memory: '10000,100000',
    slices: 3,
    profile: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '').replace(/-(\w)/g, (_, c) => c.toUpperCase());
    if (!(name in out)) throw new Error(`unknown flag ${argv[i]}`);
    if (typeof out[name] === 'boolean') out[name] = true;
    else out[name] = typeof out[name] === 'number' ? Number(argv[++i]) : argv[++i];
    if (typeof out[name] === 'number' && !(out[name] >= 0)) throw new Error(`${argv[i - 1]} needs a number`);
  }
  return out;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Starts a child and waits until it prints `ready` (a regexp) on stdout. */
function start(name, args, env, ready) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    if (ready === null) resolve(child);
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${out}`)), 15000);
    const onData = (chunk) => {
      out += chunk;
      if (ready === null) process.stderr.write(`[${name}] ${chunk}`);
      if (ready?.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      out += chunk;
      process.stderr.write(`[${name}] ${chunk}`);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}): ${out}`)));
    if (ready === null) clearTimeout(timer);
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

function rssMB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round((Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024) * 10) / 10;
}

/** A browser stand-in: keeps cookies, follows no redirects. */
class Browser {
  constructor(base) {
    this.base = base;
    this.jar = new Map();
  }
  async send(url, init = {}) {
    const target = new URL(url, this.base);
    const headers = new Headers(init.headers);
    if (target.origin === new URL(this.base).origin && this.jar.size) headers.set('cookie', this.cookie());
    const res = await fetch(target, { ...init, headers, redirect: 'manual' });
    if (target.origin === new URL(this.base).origin) {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair.indexOf('=');
        this.jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
    }
    return res;
  }
  cookie() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

function formOf(html) {
  const attr = (tag, name) =>
    new RegExp(`\\s${name}="([^"]*)"`, 'i')
      .exec(tag)?.[1]
      ?.replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  const action = attr(/<form\b[^>]*>/i.exec(html)[0], 'action');
  const body = new URLSearchParams();
  let radio;
  for (const [tag] of html.matchAll(/<input\b[^>]*>/gi)) {
    const type = (attr(tag, 'type') ?? 'text').toLowerCase();
    const name = attr(tag, 'name');
    if (!name) continue;
    if (type === 'radio') radio ??= [name, attr(tag, 'value')];
    else if (type === 'checkbox') {
      if (/\schecked\b/i.test(tag)) body.append(name, attr(tag, 'value') ?? 'on');
    } else if (type !== 'submit') body.append(name, attr(tag, 'value') ?? '');
  }
  if (radio) body.append(...radio);
  const button = [...html.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)].find((m) => /continue/i.test(m[2]));
  if (button && attr(button[0], 'name')) body.append(attr(button[0], 'name'), attr(button[0], 'value') ?? '');
  return { action, body };
}

/** The whole flow as a person does it: home → login → dialog → Continue → callback → picker → connect → page. */
async function loginFlow(appUrl, pageId = BAKERY) {
  const b = new Browser(appUrl);
  const expect = (res, status, what) => {
    if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}`);
    return res;
  };
  await expect(await b.send('/'), 200, 'home').arrayBuffer();
  const login = expect(await b.send('/auth/login'), 303, 'login');
  const dialogUrl = login.headers.get('location');
  const dialog = expect(await fetch(dialogUrl, { redirect: 'manual' }), 200, 'dialog');
  const { action, body } = formOf(await dialog.text());
  const approved = await fetch(new URL(action, dialogUrl), { method: 'POST', body, redirect: 'manual' });
  const callback = approved.headers.get('location');
  if (!callback) throw new Error(`dialog answered ${approved.status}`);
  expect(await b.send(callback), 303, 'callback');
  const picker = await expect(await b.send('/pages'), 200, 'picker').text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(picker)[1];
  expect(await b.send(`/pages/${pageId}/connect`, { method: 'POST', body: new URLSearchParams({ _csrf: csrf }) }), 303, 'connect');
  await expect(await b.send(`/pages/${pageId}`), 200, 'page').arrayBuffer();
  return b.cookie();
}

async function control(emulatorUrl, method, route, body) {
  const res = await fetch(`${emulatorUrl}/__emulator${route}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`emulator ${route}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

/** autocannon GET /pages/<id>, each request with the next session's cookie. */
async function load(url, cookies, opts) {
  let i = 0;
  const result = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.duration,
    requests: [
      {
        method: 'GET',
        path: `/pages/${BAKERY}`,
        setupRequest: (req) => (cookies.length ? { ...req, headers: { ...req.headers, cookie: cookies[i++ % cookies.length] } } : req),
      },
    ],
  });
  const ok = result['2xx'];
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: ok };
}

async function runFlows(appUrl, seconds, concurrency) {
  const times = [];
  const until = Date.now() + seconds * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        const t = performance.now();
        await loginFlow(appUrl);
        times.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const q = (p) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))] * 10) / 10;
  return { rps: times.length / elapsed, p50: q(0.5), p99: q(0.99), flows: times.length };
}

async function startApp(ports, emulatorUrl, cacheTtl, opts, tag) {
  const args = [];
  if (opts.profile) args.push('--cpu-prof', `--cpu-prof-dir=${path.join(RESULTS, 'profiles')}`, `--cpu-prof-name=app-${tag}-${Date.now()}.cpuprofile`);
  args.push('dist/server.js');
  return start(
    `app ${tag}`,
    args,
    {
      PORT: String(ports.app),
      BASE_URL: `http://127.0.0.1:${ports.app}`,
      FB_APP_ID: APP_ID,
      FB_APP_SECRET: APP_SECRET,
      FB_AUTH_URL: emulatorUrl,
      FB_GRAPH_URL: emulatorUrl,
      SESSION_SECRET,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PAGE_CACHE_TTL: String(cacheTtl),
      // Every flow starts from one address: the per-address login limit would measure itself.
      LOGIN_RATE_LIMIT: '0',
    },
    null,
  ).then(async (child) => {
    // The app logs nothing at warn on start: wait until it answers.
    for (let i = 0; i < 100; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${ports.app}/healthz`)).ok) return child;
      } catch {
        /* not yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the app did not answer /healthz');
  });
}

async function loginSessions(appUrl, n) {
  const cookies = [];
  for (let done = 0; done < n; done += 10) {
    cookies.push(...(await Promise.all(Array.from({ length: Math.min(10, n - done) }, () => loginFlow(appUrl)))));
  }
  return cookies;
}

async function viewScenario(emulatorUrl, app, cookies, opts) {
  await control(emulatorUrl, 'POST', '/latency', { ms: opts.latency });
  await control(emulatorUrl, 'DELETE', '/log');
  const r = await load(app.url, cookies, opts);
  const { count } = await control(emulatorUrl, 'GET', '/calls');
  await control(emulatorUrl, 'POST', '/latency', { ms: 0 });
  // The emulator's log keeps 10 000 entries: beyond that the count is a floor.
  return { ...r, callsPerView: count / r.requests, callsSaturated: count >= 10000, rss: rssMB(app.child.pid) };
}

function memoryRun(counts) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', path.join(__dirname, 'memory.js'), counts], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`memory.js exited ${code}`))));
  });
}

/** Slices of one scenario: requests/s over the whole time; latency percentiles averaged over the slices. */
function merge(runs) {
  const mean = (k) => runs.reduce((a, r) => a + r[k], 0) / runs.length;
  return { rps: mean('rps'), p50: mean('p50'), p99: mean('p99'), requests: runs.reduce((a, r) => a + r.requests, 0) };
}

const r1 = (x) => (x === undefined ? '—' : String(Math.round(x * 10) / 10));

async function main() {
  const opts = flags(process.argv.slice(2));
  const L = opts.latency;
  const ports = { emulator: await freePort(), app: await freePort(), floor: await freePort() };
  const appUrl = `http://127.0.0.1:${ports.app}`;
  const emulatorUrl = `http://127.0.0.1:${ports.emulator}`;
  const children = [];
  const cleanup = () => Promise.all(children.map(stop));
  process.on('SIGINT', () => cleanup().then(() => process.exit(130)));
  fs.mkdirSync(path.join(RESULTS, 'profiles'), { recursive: true });

  try {
    const emulator = await start(
      'emulator',
      ['packages/graph-emulator/dist/main.js'],
      { PROVIDER_PORT: String(ports.emulator), FB_APP_ID: APP_ID, FB_APP_SECRET: APP_SECRET, BASE_URL: appUrl },
      /listening/,
    );
    children.push(emulator);
    const rows = [];
    const log = (s) => process.stderr.write(`bench: ${s}\n`);

    // Cold: the cache off, every view goes upstream (two reads in parallel).
    log(`cold view: cache off, L=${L} ms, ${opts.connections} connections, ${opts.duration} s`);
    let child = await startApp(ports, emulatorUrl, 0, opts, 'cold');
    children.push(child);
    let cookies = await loginSessions(appUrl, opts.sessions);
    const cold = await viewScenario(emulatorUrl, { url: appUrl, child }, cookies, opts);
    rows.push({ scenario: `cold view (cache off, L=${L} ms)`, ...cold, target: `p50 ≤ ${1.25 * L} ms`, pass: cold.p50 <= 1.25 * L });

    log(`login flow: ${opts.flowConcurrency} at a time for ${opts.flowSeconds} s, L=0`);
    await control(emulatorUrl, 'DELETE', '/log');
    const flow = await runFlows(appUrl, opts.flowSeconds, opts.flowConcurrency);
    const flowCalls = (await control(emulatorUrl, 'GET', '/calls')).count;
    rows.push({
      scenario: `login flow, full (flows/s, ${opts.flowConcurrency} at a time, L=0)`,
      ...flow,
      callsPerView: flowCalls / flow.flows,
      rss: rssMB(child.pid),
      target: '—',
    });
    await stop(child);
    children.pop();

    // Warm and floor run side by side, in alternating slices, so that both see
    // the same background load on a shared machine.
    log(`warm view (PAGE_CACHE_TTL=60, L=${L} ms) and floor, alternating`);
    child = await startApp(ports, emulatorUrl, 60, opts, 'warm');
    children.push(child);
    cookies = await loginSessions(appUrl, opts.sessions);
    const issued = await control(emulatorUrl, 'POST', '/tokens', { userId: ADA, pageId: BAKERY });
    const floorChild = await start(
      'floor',
      ['bench/floor.js'],
      { PORT: String(ports.floor), GRAPH_URL: emulatorUrl, PAGE_ID: BAKERY, PAGE_TOKEN: issued.access_token, APP_SECRET },
      /floor listening/,
    );
    children.push(floorChild);
    const slices = Math.max(1, opts.slices);
    const slice = { ...opts, duration: Math.max(1, Math.round(opts.duration / slices)) };
    const warmRuns = [];
    const floorRuns = [];
    await control(emulatorUrl, 'POST', '/latency', { ms: L });
    await control(emulatorUrl, 'DELETE', '/log');
    for (let i = 0; i < slices; i++) {
      warmRuns.push(await load(appUrl, cookies, slice));
      floorRuns.push(await load(`http://127.0.0.1:${ports.floor}`, [], slice));
    }
    const warmCalls = (await control(emulatorUrl, 'GET', '/calls')).count;
    await control(emulatorUrl, 'POST', '/latency', { ms: 0 });
    const warm = { ...merge(warmRuns), rss: rssMB(child.pid) };
    warm.callsPerView = warmCalls / warm.requests;
    const floor = { ...merge(floorRuns), rss: rssMB(floorChild.pid) };
    await stop(floorChild);
    await stop(child);
    children.length = 1;

    const share = warm.rps / floor.rps;
    rows.push({
      scenario: `warm view (cache on, L=${L} ms)`,
      ...warm,
      target: `p50 ≤ ${0.1 * L} ms, 0 calls, ≥ 50% of floor req/s (${Math.round(share * 100)}%)`,
      pass: warm.p50 <= 0.1 * L && warm.callsPerView === 0 && share >= 0.5,
    });
    rows.push({ scenario: 'floor (bare Express + same template, no session/helmet/upstream)', ...floor, callsPerView: 0, target: '—' });

    log(`memory: ${opts.memory} idle logged-in sessions in the memory store`);
    for (const m of await memoryRun(opts.memory)) {
      rows.push({
        scenario: `memory: ${m.sessions.toLocaleString('en')} idle sessions (heap ${(m.heapBytesPerSession / 1024).toFixed(2)} KB/session, ${m.heapMB} MB)`,
        rss: m.rssMB,
        heapBytesPerSession: m.heapBytesPerSession,
        heapMB: m.heapMB,
        target: '≤ 3 KB heap/session',
        pass: m.heapBytesPerSession <= 3072,
      });
    }

    const date = new Date().toISOString();
    const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim();
    printTable(rows, { date, command, opts });
    const report = { date, command, node: process.version, cpus: require('node:os').cpus().length, options: opts, rows };
    fs.writeFileSync(path.join(RESULTS, `${date.replace(/[:.]/g, '-')}.json`), `${JSON.stringify(report, null, 2)}\n`);
    fs.writeFileSync(path.join(RESULTS, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    process.exitCode = rows.every((r) => r.pass !== false) ? 0 : 2;
  } finally {
    await cleanup();
  }
}

function printTable(rows, meta) {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'upstream calls/view', 'RSS MB', 'target'];
  const lines = rows.map((r) => [
    r.scenario,
    r.rps === undefined ? '—' : String(Math.round(r.rps)),
    r1(r.p50),
    r1(r.p99),
    r.callsPerView === undefined ? '—' : `${r.callsSaturated ? '≥ ' : ''}${r.callsPerView.toFixed(2)}`,
    r1(r.rss),
    r.pass === undefined ? r.target : `${r.pass ? 'pass' : 'FAIL'}: ${r.target}`,
  ]);
  const out = [`${meta.date} · ${meta.command} · node ${process.version}, ${require('node:os').cpus().length} CPUs`, ''];
  out.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`);
  for (const l of lines) out.push(`| ${l.join(' | ')} |`);
  process.stdout.write(`${out.join('\n')}\n`);
}

module.exports = { start, stop, startApp, loginFlow, control, freePort, APP_ID, APP_SECRET };

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`bench: ${err.stack ?? err}\n`);
    process.exitCode = 1;
  });
}
