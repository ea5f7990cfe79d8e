/**
 * Heap per idle logged-in session in the memory store (target: ≤ 3 KB).
 * Run with --expose-gc. Sessions have the shape a real login leaves behind:
 * express-session's cookie, the sealed user token, one connected page with its
 * sealed page token and name, the granted scopes and a CSRF secret. Tokens are
 * real ones from the emulator, sealed afresh for each session.
 *
 * Prints one JSON line: [{ sessions, heapBytesPerSession, heapMB, rssMB }, …].
 */
import { randomBytes } from 'node:crypto';
import type { SessionData } from 'express-session';
import { startEmulator, SEED_IDS } from '@pagelight/graph-emulator';
import { TokenSealer } from '../src/session/sealer';
import { createMemorySessionStore } from '../src/session/store';

export interface MemoryRow {
  sessions: number;
  heapBytesPerSession: number;
  heapMB: number;
  rssMB: number;
}

async function main(): Promise<void> {
  const counts = (process.argv[2] ?? '10000,100000').split(',').map(Number);
  const emulator = await startEmulator({
    clients: [{ clientId: '1', clientSecret: 'bench-secret-1', redirectUri: 'http://x/auth/callback', name: 'bench' }],
  });
  const user = emulator.controls.issueToken({ userId: SEED_IDS.users.ada, longLived: true }).access_token;
  const pageToken = emulator.controls.issueToken({
    userId: SEED_IDS.users.ada,
    pageId: SEED_IDS.pages.bakery,
  }).access_token;
  await emulator.close();
  const sealer = new TokenSealer(['bench-session-secret-0123456789abcdef']);
  const idle = 7200 * 1000;
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with node --expose-gc (npm run bench does)');

  const session = () =>
    ({
      cookie: {
        originalMaxAge: idle,
        expires: new Date(Date.now() + idle),
        secure: false,
        httpOnly: true,
        path: '/',
        sameSite: 'lax',
      },
      signIn: {
        userToken: sealer.seal(user),
        expiresAt: Date.now() + 60 * 86400 * 1000,
        loggedInAt: Date.now(),
        pages: { [SEED_IDS.pages.bakery]: { token: sealer.seal(pageToken), name: 'Lovelace Analytical Bakery' } },
        scopes: ['pages_read_engagement', 'pages_read_user_content', 'pages_show_list', 'public_profile'],
      },
      csrf: randomBytes(24).toString('base64url'),
    }) as unknown as SessionData;

  const results: MemoryRow[] = [];
  for (const n of counts) {
    const handle = createMemorySessionStore({ sessionIdleSec: 7200 }, Math.max(...counts) + 1);
    const settle = () => {
      for (let i = 0; i < 4; i++) collect();
      return process.memoryUsage();
    };
    const before = settle();
    for (let i = 0; i < n; i++) {
      // express-session ids: 24 random bytes, base64url (uid-safe).
      handle.store.set(randomBytes(24).toString('base64url'), session(), () => {});
    }
    const after = settle();
    results.push({
      sessions: n,
      heapBytesPerSession: Math.round((after.heapUsed - before.heapUsed) / n),
      heapMB: Math.round((after.heapUsed / 1048576) * 10) / 10,
      rssMB: Math.round((after.rss / 1048576) * 10) / 10,
    });
    await handle.close();
    (handle.store as { store?: { reset?: () => void } }).store?.reset?.();
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`memory: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
