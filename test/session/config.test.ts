import { ConfigError, loadConfig } from '../../src/config';

/** The session variables (docs/configuration.md): each bad value is one error naming its variable. */
describe('session configuration', () => {
  it('when nothing is set, then memory sessions with a 2-hour idle timeout and a 7-day absolute lifetime', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      sessionStore: 'memory',
      redisKeyPrefix: 'pagelight:',
      sessionIdleSec: 7200,
      sessionMaxSec: 604800,
    });
  });

  it('when Redis is chosen with a URL, a database and a prefix, then they are taken as given', () => {
    const config = loadConfig({
      SESSION_STORE: 'redis',
      REDIS_URL: 'rediss://:pw@cache.internal:6380/2',
      REDIS_KEY_PREFIX: 'app1:s:',
    });
    expect(config).toMatchObject({
      sessionStore: 'redis',
      redisUrl: 'rediss://:pw@cache.internal:6380/2',
      redisKeyPrefix: 'app1:s:',
    });
  });

  it('when the old REDIS_PREFIX is set, then one line naming REDIS_KEY_PREFIX, its new name', () => {
    expect(() => loadConfig({ SESSION_STORE: 'redis', REDIS_PREFIX: 'app1:sess:' })).toThrow(
      /^REDIS_PREFIX: was renamed REDIS_KEY_PREFIX .*; set that instead$/,
    );
  });

  it('when TOKEN_ENCRYPTION_KEY lists keys, then they are kept newest first, apart from SESSION_SECRET', () => {
    const config = loadConfig({
      SESSION_SECRET: 's'.repeat(40),
      TOKEN_ENCRYPTION_KEY: `${'n'.repeat(32)}, ${'o'.repeat(32)}`,
    });
    expect(config.tokenKeys).toEqual(['n'.repeat(32), 'o'.repeat(32)]);
    expect(config.sessionSecrets).toEqual(['s'.repeat(40)]);
  });

  it.each([
    [{ REDIS_URL: 'redis://127.0.0.1:6379/sessions' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://127.0.0.1:99999' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis:///0' }, 'REDIS_URL'],
    [{ REDIS_KEY_PREFIX: 'has space' }, 'REDIS_KEY_PREFIX'],
    [{ REDIS_KEY_PREFIX: 'x'.repeat(101) }, 'REDIS_KEY_PREFIX'],
    [{ SESSION_IDLE_SECONDS: '0' }, 'SESSION_IDLE_SECONDS'],
    [{ SESSION_MAX_SECONDS: 'a week' }, 'SESSION_MAX_SECONDS'],
    [{ TOKEN_ENCRYPTION_KEY: `${'n'.repeat(32)},short` }, 'TOKEN_ENCRYPTION_KEY'],
  ])('when %j, then a ConfigError naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (err) {
      expect((err as ConfigError).variable).toBe(variable);
      expect((err as Error).message.split('\n')).toHaveLength(1);
      expect((err as Error).message).not.toContain('pw@');
    }
  });
});
