import { ConfigError, loadConfig } from '../../src/config';

/** The session variables (docs/configuration.md): each bad value is one error naming its variable. */
describe('session configuration', () => {
  it('when nothing is set, then memory sessions with a 2-hour idle timeout and a 7-day absolute lifetime', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      sessionStore: 'memory',
      redisPrefix: 'pagelight:sess:',
      sessionIdleSec: 7200,
      sessionMaxSec: 604800,
    });
  });

  it('when Redis is chosen with a URL, a database and a prefix, then they are taken as given', () => {
    const config = loadConfig({
      SESSION_STORE: 'redis',
      REDIS_URL: 'rediss://:pw@cache.internal:6380/2',
      REDIS_PREFIX: 'app1:s:',
    });
    expect(config).toMatchObject({
      sessionStore: 'redis',
      redisUrl: 'rediss://:pw@cache.internal:6380/2',
      redisPrefix: 'app1:s:',
    });
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
    [{ REDIS_PREFIX: 'has space' }, 'REDIS_PREFIX'],
    [{ REDIS_PREFIX: 'x'.repeat(101) }, 'REDIS_PREFIX'],
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
