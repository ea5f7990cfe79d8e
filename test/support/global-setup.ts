/**
 * Before `npm test`'s app suites (jest.config.js): what the whole run costs, and whether Redis answers, decided
 * here once and said in one calm line, instead of a warning from each of the dozen suites that need it.
 * @see README.md#tests-and-screenshots
 */
import { checkRedis, REDIS_CHECKED_ENV } from './redis';

export default function globalSetup(globalConfig: { testPathPattern?: string }): void {
  // The whole run, not a file or two asked for by name: say what it costs before it starts.
  if (!globalConfig.testPathPattern)
    process.stdout.write(
      '\nnpm test: about 3½ minutes of CPU, in a worker per core of at most 1.3 GB each; 2½ minutes on two cores, longer on a busy machine (README.md#tests-and-screenshots).\n',
    );
  const checked = checkRedis();
  // Test workers start after this and inherit the environment, so none of them asks again.
  process.env[REDIS_CHECKED_ENV] = checked;
  process.stdout.write(
    checked === 'yes'
      ? '\nRedis answers at REDIS_URL: the Redis suites run too.\n'
      : `\n${checked}, so the suites that need Redis are skipped (set REDIS_URL to run them, README.md#tests-and-screenshots).\n`,
  );
}
