/**
 * Asks `check` again until it holds, for a condition no event announces (a
 * count in Redis, a page read through a cache). It has no deadline of its
 * own: the test's timeout bounds it, so a slow machine waits longer instead
 * of failing.
 */
export async function eventually(check: () => boolean | Promise<boolean>, everyMs = 20): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, everyMs));
}

/** How long `check` took to hold: for a report, never for a bound. */
export async function timeUntil(check: () => boolean | Promise<boolean>): Promise<number> {
  const start = Date.now();
  await eventually(check, 50);
  return Date.now() - start;
}
