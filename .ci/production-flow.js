#!/usr/bin/env node
/**
 * CI's proof of the production path (docs/deployment.md#what-ci-checks), run by .ci/run on a
 * copy of the clone that went through scripts/build-production.sh (no dev dependencies left):
 *
 *   1. the emulator as its own process (its bin), standing in for the provider;
 *   2. the app started as the README says, `NODE_ENV=production npm start`, sessions in Redis;
 *   3. the whole flow over HTTP with one cookie jar, as a browser would: home, /auth/login,
 *      the emulator's dialog, the callback, the picker, connect, and the page view, which must
 *      show the page's name and its posts;
 *   4. SIGTERM to the app, which must exit 0.
 *
 * Plain JavaScript and Node's fetch: the copy has no TypeScript and no test tools.
 * Usage: node .ci/production-flow.js <built copy>   (REDIS_URL from the environment)
 */
const { spawn } = require('node:child_process');
const path = require('node:path');
const { freePort } = require('./free-port');

const dir = path.resolve(process.argv[2] ?? '.');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const APP_ID = '1234567890123456';
const APP_SECRET = 'ci-app-secret-not-for-production';
// Its own keys, so a run never meets another run's sessions; deleted at the end.
const REDIS_KEY_PREFIX = `pagelight-ci-${process.pid}:`;

/** A child process whose output is kept for the failure message. */
function start(name, command, args, env) {
  const proc = spawn(command, args, {
    cwd: dir,
    // The environment an operator would give, no more: not this shell's (no dev tools on PATH besides node and npm).
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a stop reaches npm's child too (npm does not pass SIGTERM on).
    detached: true,
  });
  const output = [];
  const keep = (chunk) => output.push(chunk.toString());
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  const exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  return { name, proc, output, exited };
}

function fail(message, ...children) {
  const logs = children.map((c) => `--- ${c.name}:\n${c.output.join('').slice(-4000)}`).join('\n');
  throw new Error(`${message}\n${logs}`);
}

async function waitForUrl(child, url, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.proc.exitCode !== null) fail(`${child.name} exited with ${child.proc.exitCode}`, child);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) fail(`${child.name} did not answer ${url} within ${timeoutMs} ms`, child);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One cookie jar, redirects never followed: each step of the flow is checked by its status. */
class Browser {
  jar = new Map();

  async request(url, init = {}) {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set('cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual', signal: AbortSignal.timeout(10000) });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0];
      const eq = pair.indexOf('=');
      if (pair.slice(eq + 1) === '') this.jar.delete(pair.slice(0, eq));
      else this.jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  }

  post(url, form) {
    return this.request(url, {
      method: 'POST',
      body: new URLSearchParams(form),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
}

async function expectStatus(res, status, step) {
  if (res.status !== status)
    throw new Error(`${step}: expected ${status}, got ${res.status}: ${(await res.text()).slice(0, 500)}`);
  return res;
}

const decode = (s) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const attr = (tag, name) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag);
  return m ? decode(m[1]) : undefined;
};

/** The emulator's dialog as a person completes it: the first seeded person, every box as ticked, Continue. */
async function completeDialog(dialogUrl) {
  const page = await expectStatus(await fetch(dialogUrl, { redirect: 'manual' }), 200, 'the dialog');
  const html = await page.text();
  const formTag = /<form\b[^>]*>/i.exec(html);
  if (!formTag) throw new Error(`no form in the dialog: ${html.slice(0, 300)}`);
  const body = new URLSearchParams();
  let person;
  for (const [tag] of html.matchAll(/<input\b[^>]*>/gi)) {
    const type = (attr(tag, 'type') ?? 'text').toLowerCase();
    const name = attr(tag, 'name');
    const value = attr(tag, 'value') ?? 'on';
    if (!name || type === 'submit') continue;
    if (type === 'radio') person ??= [name, value];
    else if (type !== 'checkbox' || /\schecked\b/i.test(tag)) body.append(name, value);
  }
  if (person) body.append(...person);
  const button = [...html.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>/gi)].find((m) => /continue/i.test(m[1]));
  if (!button) throw new Error('no Continue button in the dialog');
  if (attr(button[0], 'name')) body.append(attr(button[0], 'name'), attr(button[0], 'value') ?? '');
  const submitted = await fetch(new URL(attr(formTag[0], 'action') ?? '', dialogUrl), {
    method: 'POST',
    body,
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const location = submitted.headers.get('location');
  if (![302, 303].includes(submitted.status) || !location)
    throw new Error(`the dialog's Continue answered ${submitted.status}: ${(await submitted.text()).slice(0, 300)}`);
  return new URL(location);
}

/** home → login → dialog → callback → picker → connect → page view; returns what the view showed. */
async function loginToFeed(browser, appUrl) {
  const home = await (await expectStatus(await browser.request(`${appUrl}/`), 200, 'home')).text();
  if (!home.includes('/auth/login')) throw new Error('home has no login link');
  const login = await expectStatus(await browser.request(`${appUrl}/auth/login`), 303, '/auth/login');
  const callback = await completeDialog(login.headers.get('location'));
  if (callback.origin !== appUrl) throw new Error(`the dialog sent the browser to ${callback.origin}, not the app`);
  await expectStatus(await browser.request(callback.href), 303, 'the callback');
  const picker = await (await expectStatus(await browser.request(`${appUrl}/pages`), 200, 'the picker')).text();
  const choice =
    /<h2 class="card-title"[^>]*>([^<]*)<\/h2>[\s\S]*?action="\/pages\/(\d+)\/connect"[\s\S]*?name="_csrf" value="([^"]+)"/.exec(
      picker,
    );
  if (!choice) throw new Error(`the picker offers no page to connect: ${picker.slice(0, 500)}`);
  const [, name, pageId, csrf] = choice;
  await expectStatus(await browser.post(`${appUrl}/pages/${pageId}/connect`, { _csrf: csrf }), 303, 'connect');
  const view = await (
    await expectStatus(await browser.request(`${appUrl}/pages/${pageId}`), 200, 'the page view')
  ).text();
  const heading = /<h1[^>]*>([^<]*)<\/h1>/.exec(view)?.[1];
  const posts = (view.match(/<li class="post[ "]/g) ?? []).length;
  if (heading !== name) throw new Error(`the page view's heading is ${heading}, not the connected page ${name}`);
  if (posts === 0) throw new Error('the page view shows no posts');
  return { name: decode(name), pageId, posts };
}

/** Deletes this run's keys (sessions, rate-limit counters), with the build's own Redis client. */
async function dropKeys() {
  const { createClient } = require(path.join(dir, 'node_modules/redis'));
  const client = createClient({ url: redisUrl });
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `*${REDIS_KEY_PREFIX}*`, COUNT: 500 }))
    if (keys.length > 0) await client.del(keys);
  await client.quit();
}

/** Resolves once nothing accepts connections on `port` any more (npm's child has stopped too). */
async function waitForClosed(port, timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  while (
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) }).then(
      () => true,
      () => false,
    )
  ) {
    if (Date.now() > deadline) throw new Error(`port ${port} still answers ${timeoutMs} ms after SIGTERM`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * SIGTERM, then the exit must pass `ok` (SIGKILL after 15 s, as an orchestrator would). With `drainUrl`, the
 * drain is checked too: /readyz turns 503 "draining" while /livez and the pages are still served.
 */
async function stopApp(app, ok, drainUrl) {
  app.proc.kill('SIGTERM');
  if (drainUrl) {
    for (;;) {
      const ready = await fetch(`${drainUrl}/readyz`).catch((err) =>
        fail(`/readyz during the drain: ${err.message}`, app),
      );
      if (ready.status === 503) {
        const body = await ready.json();
        if (body.reason !== 'draining') fail(`/readyz during the drain said ${JSON.stringify(body)}`, app);
        break;
      }
      await ready.arrayBuffer();
      await new Promise((r) => setTimeout(r, 20));
    }
    const live = await fetch(`${drainUrl}/livez`).catch((err) => fail(`/livez during the drain: ${err.message}`, app));
    if (live.status !== 200) fail(`/livez during the drain answered ${live.status}`, app);
  }
  const timer = setTimeout(() => app.proc.kill('SIGKILL'), 15000);
  const { code, signal } = await app.exited;
  clearTimeout(timer);
  if (!ok(code, signal)) fail(`after SIGTERM ${app.name} exited with ${code ?? signal}`, app);
}

async function main() {
  const [appPort, providerPort] = await Promise.all([freePort(), freePort()]);
  const appUrl = `http://127.0.0.1:${appPort}`;
  const providerUrl = `http://127.0.0.1:${providerPort}`;
  const provider = start('the emulator', process.execPath, [path.join(dir, 'node_modules/.bin/graph-emulator')], {
    PROVIDER_PORT: String(providerPort),
    FB_APP_ID: APP_ID,
    FB_APP_SECRET: APP_SECRET,
    BASE_URL: appUrl,
  });
  let app;
  try {
    await waitForUrl(provider, `${providerUrl}/__emulator/seed`);
    const appEnv = {
      NODE_ENV: 'production',
      PORT: String(appPort),
      BASE_URL: appUrl,
      FB_APP_ID: APP_ID,
      FB_APP_SECRET: APP_SECRET,
      FB_AUTH_URL: providerUrl,
      FB_GRAPH_URL: providerUrl,
      FB_IMAGE_ORIGINS: providerUrl,
      SESSION_SECRET: 'ci-session-secret-of-at-least-32-characters',
      SESSION_STORE: 'redis',
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX,
      LOG_LEVEL: 'warn',
      // Long enough to see /readyz answer 503 while the app still serves, short enough for CI.
      SHUTDOWN_DRAIN_SECONDS: '2',
    };
    // The README's production command: npm start's build step must see NODE_ENV=production and skip.
    app = start('the app (npm start)', 'npm', ['start', '--silent'], appEnv);
    await waitForUrl(app, `${appUrl}/readyz`);
    const started = Date.now();
    const browser = new Browser();
    const seen = await loginToFeed(browser, appUrl).catch((err) => fail(err.message, app, provider));
    console.log(`production flow: "${seen.name}" shows ${seen.posts} posts (${Date.now() - started} ms)`);
    // npm does not pass SIGTERM on to the app: a terminal's Ctrl-C signals the whole group, and so
    // does this. Under an orchestrator, run `node dist/server.js` instead (docs/deployment.md#signals).
    process.kill(-app.proc.pid, 'SIGTERM');
    await app.exited;
    await waitForClosed(appPort);

    // The container's command, as PID 1 would run it: SIGTERM reaches the app's own handler.
    app = start('the app (node dist/server.js)', process.execPath, ['dist/server.js'], appEnv);
    await waitForUrl(app, `${appUrl}/readyz`);
    // The session lives in Redis: the same browser sees its page again after the restart.
    const again = await browser.request(`${appUrl}/pages/${seen.pageId}`);
    if (again.status !== 200) fail(`after a restart the page view answered ${again.status}`, app);
    await stopApp(app, (code) => code === 0, appUrl);
    console.log('production flow: session kept across a restart; SIGTERM: /readyz 503 while draining, exit 0');
  } finally {
    if (app && app.proc.exitCode === null) process.kill(-app.proc.pid, 'SIGKILL');
    provider.proc.kill('SIGTERM');
    await provider.exited;
    await dropKeys();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`production flow failed: ${err.message}`);
    process.exit(1);
  });
}

module.exports = { Browser, loginToFeed };
