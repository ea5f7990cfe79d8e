/** When a suite's resource is started and stopped: once for its describe block, or afresh for each test. */
export interface Lifetime {
  perTest?: boolean;
}

/**
 * Something the enclosing `describe` starts before its tests and stops after them (with `perTest`, around each
 * test), so a suite states only what it needs. The returned function reads the one running now; reading it outside
 * a test is an error that names `what`. Hooks run in the order declared: declare this after the hooks that must
 * stop what uses it first.
 */
export function useRunning<T>(
  what: string,
  start: () => Promise<T>,
  stop: (running: T) => Promise<void>,
  lifetime: Lifetime = {},
): () => T {
  let current: T | undefined;
  const [before, after] = lifetime.perTest ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    current = await start();
  });
  after(async () => {
    const stopping = current;
    current = undefined;
    if (stopping !== undefined) await stop(stopping);
  });
  return () => {
    if (current === undefined) throw new Error(`${what}: it runs only inside the tests of the describe that set it up`);
    return current;
  };
}
