/**
 * The previous release, measured in the same run: a worktree of PREVIOUS_RELEASE built into a temporary folder,
 * started beside the current build against the same emulator, and both asked for the same views one at a time
 * in alternating batches (./sequential). A regression then shows as a ratio of two figures from one sitting, whatever the machine.
 * @see docs/performance.md#against-the-previous-release
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, freePort, startAppProcess, startEmulatorProcess, type Child } from '../test/support/processes';
import { alternate, type Side } from './sequential';
import { BAKERY, CREDENTIALS, log, loginFlow, profileArgs, stopChild, type Bench, type Row } from './shared';

const run = promisify(execFile);

/** The commit before the round that made every view dearer (docs/performance.md#against-the-previous-release). */
export const PREVIOUS_RELEASE = process.env.BENCH_PREVIOUS ?? 'f8564d5';

/** Current CPU per request ÷ the previous release's, per request kind: above this the row fails. */
const PREVIOUS_TARGET = 1.05;

/**
 * A worktree of `ref` in a temporary folder, transpiled (no type check: its code was checked when it was made,
 * and it is built against this checkout's node_modules, whose types may have moved on), or the reason it
 * could not be made within its time (git 30 s, the build 180 s); `remove` deletes the worktree.
 */
async function buildPrevious(ref: string): Promise<{ dir: string; remove: () => Promise<void> } | { skip: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagelight-previous-'));
  const remove = async () => {
    await run('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT }).catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run('git', ['worktree', 'add', '--detach', dir, ref], { cwd: ROOT, timeout: 30_000 });
    // The same dependencies as this checkout: the previous release's are a subset (package.json since then adds only).
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], { cwd: dir, timeout: 180_000 });
    return { dir, remove };
  } catch (err) {
    await remove();
    const why = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    return { skip: why };
  }
}

/** Cold page view (the cache off), warm page view (the cache filled) and anonymous login start, one session, on the current and previous builds. */
export async function againstPrevious(bench: Bench): Promise<Row[]> {
  log(`previous release: building ${PREVIOUS_RELEASE} into a temporary worktree`);
  const built = await buildPrevious(PREVIOUS_RELEASE);
  if ('skip' in built) {
    log(`previous release: skipped, ${PREVIOUS_RELEASE} could not be built (${built.skip})`);
    return [{ scenario: `against ${PREVIOUS_RELEASE}: skipped (${built.skip})`, target: '—' }];
  }
  // Removed on Ctrl-C too (the bench's cleanups), not only at the end of the row.
  bench.cleanups.push(built.remove);
  const started: Child[] = [];
  try {
    /** `cacheSeconds` 0: every view reads upstream (a cold view), and counts against the session's limit, raised here. */
    const start = async (tag: string, root: string, cacheSeconds = 60) => {
      const port = await freePort();
      const appUrl = `http://127.0.0.1:${port}`;
      // An emulator of its own, whose one client calls back to this app (neither view below calls it).
      const emulatorPort = await freePort();
      const emulator = await startEmulatorProcess(emulatorPort, appUrl, CREDENTIALS, {
        inheritEnv: true,
        echoStderr: true,
      });
      bench.children.add(emulator);
      started.push(emulator);
      const nodeArgs = profileArgs(bench, tag);
      const child = await startAppProcess(
        port,
        `http://127.0.0.1:${emulatorPort}`,
        CREDENTIALS,
        {
          NODE_ENV: 'production',
          PAGE_CACHE_TTL: String(cacheSeconds),
          LOGIN_RATE_LIMIT: '0',
          SESSION_RATE_LIMIT: '100000',
          SHUTDOWN_DRAIN_SECONDS: '0',
        },
        { inheritEnv: true, echoStderr: true, nodeArgs, root },
      );
      child.name = `app ${tag}`;
      bench.children.add(child);
      started.push(child);
      const cookie = await loginFlow(appUrl);
      return { child, appUrl, cookie };
    };
    // Each build twice: with the cache (warm views, login starts) and without it (cold views).
    const builds = {
      current: { warm: await start('current', ROOT), cold: await start('current-cold', ROOT, 0) },
      previous: {
        warm: await start(PREVIOUS_RELEASE, built.dir),
        cold: await start(`${PREVIOUS_RELEASE}-cold`, built.dir, 0),
      },
    };
    type Build = typeof builds.current;
    const page = (app: Build['warm']): Side => ({
      child: app.child,
      url: `${app.appUrl}/pages/${BAKERY}`,
      headers: { cookie: app.cookie },
      status: 200,
    });
    const kinds: Record<string, (b: Build) => Side> = {
      // The cache off: the page's two provider reads, their checks and its rendering, on every view.
      'cold page view': (b) => page(b.cold),
      'warm page view': (b) => page(b.warm),
      'login start': (b) => ({ child: b.warm.child, url: `${b.warm.appUrl}/auth/login`, status: 303 }),
    };
    log(
      `previous release: cold and warm page views and login start, current and ${PREVIOUS_RELEASE} in alternating batches`,
    );
    const rows: Row[] = [];
    for (const [name, side] of Object.entries(kinds)) {
      const { a: now, b: then, ratio: previousRatio } = await alternate(side(builds.current), side(builds.previous));
      rows.push({
        scenario: `${name}: current CPU per request ÷ ${PREVIOUS_RELEASE}'s (one at a time, L=0, same run)`,
        result: `${previousRatio.toFixed(2)} (${now.toFixed(0)} µs ÷ ${then.toFixed(0)} µs)`,
        figures: { previousRatio, currentCpuUsPerRequest: now, previousCpuUsPerRequest: then },
        target: `≤ ${PREVIOUS_TARGET.toFixed(2)}`,
        pass: previousRatio <= PREVIOUS_TARGET,
      });
    }
    return rows;
  } finally {
    for (const child of started) await stopChild(bench, child);
    await built.remove();
  }
}
