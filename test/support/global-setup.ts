/**
 * Before `npm test`'s app suites (jest.config.js): whether Redis answers is decided here once for the whole run,
 * and said in one calm line, instead of a warning from each of the dozen suites that need it.
 * @see README.md#tests-and-screenshots
 */
import { checkRedis, REDIS_CHECKED_ENV } from './redis';

export default function globalSetup(): void {
  const checked = checkRedis();
  // Test workers start after this and inherit the environment, so none of them asks again.
  process.env[REDIS_CHECKED_ENV] = checked;
  process.stdout.write(
    checked === 'yes'
      ? '\nRedis answers at REDIS_URL: the Redis suites run too.\n'
      : `\n${checked}, so the suites that need Redis are skipped (set REDIS_URL to run them, README.md#tests-and-screenshots).\n`,
  );
}
