/**
 * Several app instances against one emulator (session, scale-out and shutdown
 * suites): the shared emulator, each instance's config, and a poll for what
 * has no event to wait on.
 */
import { loadConfig, type Config } from '../../src/config';
import { startEmulator, type RunningEmulator } from '@pagelight/graph-emulator';
import { APP_ID, APP_SECRET, appEnv, BASE_URL } from './stack';

/** One emulator whose registered callback is the shared BASE_URL of every instance. */
export function startSharedEmulator(): Promise<RunningEmulator> {
  return startEmulator({
    seed: 'test',
    clients: [
      { clientId: APP_ID, clientSecret: APP_SECRET, redirectUri: `${BASE_URL}/auth/callback`, name: 'Pagelight test' },
    ],
  });
}

export function configFor(emulator: RunningEmulator, env: Record<string, string> = {}): Config {
  return loadConfig({ ...appEnv(emulator.url), PROVIDER_TIMEOUT_MS: '2000', ...env });
}

/** Polls until `check` holds or `ms` pass; returns the time it took. */
export async function waitFor(check: () => Promise<boolean>, ms: number, what: string): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
