import { spawn } from 'node:child_process';
import path from 'node:path';
import { GRAPH_API_VERSIONS as EMULATOR_VERSIONS } from '@pagelight/graph-emulator';
import { ConfigError, loadConfig, versionWarning } from '../../src/config';
import { DEFAULT_API_VERSION } from '../../src/graph/provider';
import { GRAPH_API_VERSIONS, NEWEST_KNOWN_VERSION, OLDEST_KNOWN_VERSION } from '../../src/graph/versions';

const ROOT = path.resolve(__dirname, '..', '..');
const NOV_24_2026 = Date.UTC(2026, 10, 24, 12);
const env = (version: string) => ({ FB_API_VERSION: version });

/** When the provider stops answering a version (docs/provider-interface.md#version-ends). */
describe('FB_API_VERSION and the end of its availability', () => {
  it('when the version already ended, then a one-line configuration error names its end date and the newest version known', () => {
    const refuse = () => loadConfig(env('v20.0'), NOV_24_2026);
    expect(refuse).toThrow(ConfigError);
    expect(refuse).toThrow(
      'FB_API_VERSION: v20.0 stopped being available on 2026-09-24; set FB_API_VERSION=v27.0, the newest version Pagelight knows',
    );
    expect(() => refuse()).not.toThrow(/\n/);
  });

  it('when the version is older than the oldest the table knows, then it is refused like an ended one', () => {
    const oldest = OLDEST_KNOWN_VERSION;
    const refuse = () => loadConfig(env('v2.0'), NOV_24_2026);
    expect(refuse).toThrow(ConfigError);
    expect(refuse).toThrow(
      `FB_API_VERSION: v2.0 is older than ${oldest}, the oldest version Pagelight knows, which stopped being available on ${GRAPH_API_VERSIONS[oldest]}; set FB_API_VERSION=${NEWEST_KNOWN_VERSION}, the newest version Pagelight knows`,
    );
  });

  it('when the version is the oldest the table knows, then its own end decides', () => {
    const oldest = OLDEST_KNOWN_VERSION;
    expect(() => loadConfig(env(oldest), Date.UTC(2000, 0, 1))).not.toThrow();
    expect(Object.keys(GRAPH_API_VERSIONS)).toContain(oldest);
  });

  it('when the version ends on the day of the check, then it is already refused', () => {
    expect(() => loadConfig(env('v21.0'), Date.UTC(2027, 0, 21))).toThrow(
      /v21\.0 stopped being available on 2027-01-21/,
    );
  });

  it('when the version ends within 90 days, then the start-up warning names the day, the days left and the newest version', () => {
    const config = loadConfig(env('v21.0'), NOV_24_2026);
    expect(versionWarning(config, NOV_24_2026)).toBe(
      'FB_API_VERSION=v21.0 stops being available on 2027-01-21, in 58 days: move to v27.0 (docs/operations.md#api-versions)',
    );
  });

  it('when the version ends in more than 90 days, has no end yet, or is one the table does not know, then no warning and no error', () => {
    for (const version of ['v22.0', 'v26.0', 'v27.0', 'v99.9']) {
      const config = loadConfig(env(version), NOV_24_2026);
      expect(versionWarning(config, NOV_24_2026)).toBeUndefined();
    }
  });

  it('when nothing is configured, then the default is the newest version the table knows', () => {
    expect(NEWEST_KNOWN_VERSION).toBe(DEFAULT_API_VERSION);
  });

  it('when the app and the emulator each keep the provider’s table, then the two agree', () => {
    expect(GRAPH_API_VERSIONS).toEqual(EMULATOR_VERSIONS);
  });

  it('when the server starts with a version long ended (v19.0), then it exits 1 with the one-line configuration error', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, FB_API_VERSION: 'v19.0', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toBe(
      'pagelight: configuration error: FB_API_VERSION: v19.0 stopped being available on 2026-05-21; set FB_API_VERSION=v27.0, the newest version Pagelight knows\n',
    );
  });
});
