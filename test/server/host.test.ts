import { ConfigError, loadConfig } from '../../src/config';
import { listeningLine } from '../../src/http/listening';

/**
 * Where the app listens (HOST) and how long it drains (SHUTDOWN_DRAIN_SECONDS). Demo mode has a published
 * app secret, so it binds loopback unless HOST says otherwise, and says why at start.
 * @see docs/operations.md#host
 */
const REAL = { FB_APP_ID: '1234567890123456', FB_APP_SECRET: 'real-app-secret', SESSION_SECRET: 'x'.repeat(32) };

describe('HOST', () => {
  it('when demo mode runs with HOST unset, then it binds 127.0.0.1 and the start-up line says why', () => {
    const config = loadConfig({});
    expect(config.demo).toBe(true);
    expect(config.host).toBe('127.0.0.1');
    const line = listeningLine(config, '127.0.0.1', 3000, 'memory');
    expect(line).toContain('bound to 127.0.0.1 port 3000');
    expect(line).toMatch(/demo mode listens on loopback only, because its app secret is published/);
    expect(line).toContain('set HOST');
  });

  it('when demo mode is given HOST, then it binds there', () => {
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::' }).host).toBe('::');
  });

  it('when a real provider is configured and HOST is unset, then every interface, and the line says so', () => {
    const config = loadConfig(REAL);
    expect(config.host).toBeUndefined();
    const line = listeningLine(config, '::', 3000, 'redis');
    expect(line).toContain('bound to every interface (::) port 3000, sessions in redis');
    expect(line).not.toContain('demo');
    expect(loadConfig({ ...REAL, HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });

  it.each(['http://0.0.0.0', '0.0.0.0:3000 ', 'a b', 'host;rm'])(
    'when HOST is %p, then the start stops with a line naming HOST',
    (host) => {
      expect(() => loadConfig({ HOST: host })).toThrow(ConfigError);
      expect(() => loadConfig({ HOST: host })).toThrow(/^HOST: must be an address to listen on/);
    },
  );
});

describe('SHUTDOWN_DRAIN_SECONDS and LOG_REQUESTS', () => {
  it('when unset, then the drain is 5 s in production against a real provider and 0 otherwise; requests are all logged', () => {
    expect(loadConfig({ ...REAL, NODE_ENV: 'production' }).shutdownDrainSec).toBe(5);
    expect(loadConfig(REAL).shutdownDrainSec).toBe(0);
    expect(loadConfig({ NODE_ENV: 'production' }).shutdownDrainSec).toBe(0);
    expect(loadConfig({ ...REAL, NODE_ENV: 'production', SHUTDOWN_DRAIN_SECONDS: '12' }).shutdownDrainSec).toBe(12);
    expect(loadConfig({}).logRequests).toBe('all');
    expect(loadConfig({ LOG_REQUESTS: 'errors' }).logRequests).toBe('errors');
  });

  it('when a value is out of range, then the line names the variable', () => {
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '301' })).toThrow(
      /^SHUTDOWN_DRAIN_SECONDS: must be a whole number/,
    );
    expect(() => loadConfig({ LOG_REQUESTS: 'some' })).toThrow(/^LOG_REQUESTS: must be one of all, errors, off/);
  });
});
