'use strict';
/**
 * Heap per idle logged-in session in the memory store (issue 5: ≤ 3 KB).
 * Run with --expose-gc. Sessions have the shape a real login leaves behind:
 * express-session's cookie, the sealed user token, one connected page with its
 * sealed page token and name, the granted scopes and a CSRF secret. Tokens are
 * real ones from the emulator, sealed afresh for each session.
 *
 * Prints one JSON line: [{ sessions, heapBytesPerSession, heapMB, rssMB }, …].
 */
const { randomBytes } = require('node:crypto');
const { createMemorySessionStore } = require('../dist/session/store');
const { TokenSealer } = require('../dist/session/sealer');
const { startEmulator, SEED_IDS } = require('@pagelight/graph-emulator');

async function main() {
  const counts = (process.argv[2] ?? '10000,100000').split(',').map(Number);
  const emulator = await startEmulator({ clients: [{ clientId: '1', clientSecret: 'bench-secret-1', redirectUri: 'http://x/auth/callback', name: 'bench' }] });
  const user = emulator.controls.issueToken({ userId: SEED_IDS.users.ada, longLived: true }).access_token;
  const pageToken = emulator.controls.issueToken({ userId: SEED_IDS.users.ada, pageId: SEED_IDS.pages.bakery }).access_token;
  await emulator.close();
  const sealer = new TokenSealer(['bench-session-secret-0123456789abcdef']);
  const idle = 7200 * 1000;

  const session = () => ({
    cookie: { originalMaxAge: idle, expires: new Date(Date.now() + idle), secure: false, httpOnly: true, path: '/', sameSite: 'lax' },
    connection: {
      userToken: sealer.seal(user),
      expiresAt: Date.now() + 60 * 86400 * 1000,
      loggedInAt: Date.now(),
      pages: { [SEED_IDS.pages.bakery]: { token: sealer.seal(pageToken), name: 'Lovelace Analytical Bakery' } },
      scopes: ['pages_read_engagement', 'pages_read_user_content', 'pages_show_list', 'public_profile'],
    },
    csrf: randomBytes(24).toString('base64url'),
  });

  const results = [];
  for (const n of counts) {
    const handle = createMemorySessionStore({ sessionIdleSec: 7200 }, Math.max(...counts) + 1);
    const settle = () => {
      for (let i = 0; i < 4; i++) global.gc();
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
    handle.store.store?.reset?.();
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().catch((err) => {
  process.stderr.write(`memory: ${err.stack ?? err}\n`);
  process.exit(1);
});
