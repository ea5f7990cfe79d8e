/**
 * Several app instances against one emulator (session, scale-out and shutdown
 * suites): the shared emulator, each instance's config.
 */
import { loadConfig, type Config } from '../../src/config';
import { startEmulator, type RunningEmulator } from '@pagelight/graph-emulator';
import type { SessionStoreHandle } from '../../src/session/store';
import { useRunning } from './lifetime';
import { REDIS_URL, uniqueKeyPrefix, useRedisAdmin } from './redis';
import type { EventStream } from './sse';
import { APP_ID, APP_SECRET, appEnv, BASE_URL, startInstance, type Instance } from './stack';

/** One emulator whose registered callback is the shared BASE_URL of every instance. */
export function startSharedEmulator(): Promise<RunningEmulator> {
  return startEmulator({
    seed: 'test',
    clients: [
      { clientId: APP_ID, clientSecret: APP_SECRET, redirectUri: `${BASE_URL}/auth/callback`, name: 'Pagelight test' },
    ],
  });
}

/**
 * The shared emulator of the enclosing `describe`: started before its tests and closed after them. Its fields read
 * the emulator running now; reading one outside a test is an error that says so.
 */
export function useSharedEmulator(): RunningEmulator {
  const now = useRunning('useSharedEmulator', startSharedEmulator, (emulator) => emulator.close());
  return {
    get url() {
      return now().url;
    },
    get port() {
      return now().port;
    },
    get controls() {
      return now().controls;
    },
    close: () => Promise.reject(new Error('useSharedEmulator closes its emulator itself')),
  };
}

export function configFor(emulator: RunningEmulator, env: Record<string, string> = {}): Config {
  return loadConfig({ ...appEnv(emulator.url), PROVIDER_TIMEOUT_MS: '2000', ...env });
}

/** What a login writes, straight into a store: a connected session of `userId` expiring `lifetimeSec` from now. */
export function storeLoggedInSession(
  handle: SessionStoreHandle,
  sid: string,
  userId: string,
  lifetimeSec: number,
): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    handle.store.set(
      sid,
      {
        cookie: { expires: new Date(Date.now() + lifetimeSec * 1000), originalMaxAge: lifetimeSec * 1000 },
        signIn: { userToken: 'sealed', expiresAt: null, loggedInAt: Date.now(), pages: {}, userId },
      },
      (err?: unknown) =>
        err ? reject(err instanceof Error ? err : new Error('the session store refused the write')) : resolve(),
    ),
  );
}

/**
 * Instances of the app on one shared emulator, sharing one Redis under a key prefix of their own (sessions, page
 * cache, event bus): `start` starts one more with `env` added; each is closed after its test, with the streams
 * the test put in `open`, and the prefix's keys are deleted at the end.
 */
export function useRedisInstances(env: Record<string, string>) {
  const prefix = uniqueKeyPrefix();
  const emulator = useSharedEmulator();
  const running: Instance[] = [];
  const open: EventStream[] = [];
  afterEach(async () => {
    open.splice(0).forEach((s) => s.close());
    await Promise.all(running.splice(0).map((i) => i.close()));
  });
  useRedisAdmin(prefix);
  const start = async (): Promise<Instance> => {
    const config = { SESSION_STORE: 'redis', PAGE_CACHE_STORE: 'redis', REDIS_URL, REDIS_KEY_PREFIX: prefix, ...env };
    const instance = await startInstance(configFor(emulator, config));
    running.push(instance);
    return instance;
  };
  return { emulator, open, start };
}
