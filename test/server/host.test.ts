import { spawn } from 'node:child_process';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { listeningLine } from '../../src/http/listening';

/**
 * Where the app listens (HOST) and how long it drains (SHUTDOWN_DRAIN_SECONDS). Demo mode has a published
 * app secret, so it binds loopback unless HOST says otherwise, and says why at start.
 * @see docs/operations.md#host
 */
const ROOT = path.resolve(__dirname, '..', '..');

/** Everything `src/server.ts` prints before it exits, and its exit code. */
async function startWith(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, PORT: '0', PROVIDER_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

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

  it('when BASE_URL is the port it listens on, then the start-up line gives that URL to open', () => {
    const line = listeningLine(loadConfig({ ...REAL, BASE_URL: 'http://localhost:3000' }), '::', 3000, 'redis');
    expect(line.startsWith('Pagelight is listening on http://localhost:3000 (bound to every interface')).toBe(true);
  });

  it('when BASE_URL is a proxy in front of several instances, then the line names only the port this process listens on', () => {
    const config = loadConfig({ ...REAL, BASE_URL: 'http://localhost:8080', HOST: '127.0.0.1' });
    const line = listeningLine(config, '127.0.0.1', 3001, 'redis');
    expect(line).toBe(
      'Pagelight is listening on 127.0.0.1 port 3001 (sessions in redis); people reach it at BASE_URL, through the proxy in front of it',
    );
    expect(line).not.toContain('8080');
  });

  it.each(['http://0.0.0.0', '0.0.0.0:3000 ', 'a b', 'host;rm'])(
    'when HOST is %p, then the start stops with a line naming HOST',
    (host) => {
      expect(() => loadConfig({ HOST: host })).toThrow(ConfigError);
      expect(() => loadConfig({ HOST: host })).toThrow(/^HOST: must be an address to listen on/);
    },
  );
});

describe('HOST that cannot be bound', () => {
  it.each([
    [
      'a name that resolves to no address',
      'not-an-ip',
      'HOST: "not-an-ip" is not an address and no address is found for it as a host name; use an address such as 127.0.0.1, 0.0.0.0 or ::',
    ],
    [
      'an address this machine does not have',
      '192.0.2.1',
      'HOST: 192.0.2.1 is not an address of this machine; use one of its addresses, 0.0.0.0 or ::',
    ],
  ])(
    'when HOST is %s, then the start stops with one configuration line naming HOST',
    async (_case, host, line) => {
      const { code, output } = await startWith({ HOST: host, LOG_LEVEL: 'silent' });
      expect(code).toBe(1);
      expect(output).toBe(`pagelight: configuration error: ${line}\n`);
    },
    30_000,
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
