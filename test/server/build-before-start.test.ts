import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * `npm start`'s first step (scripts/build-before-start.js, docs/deployment.md): a newcomer's first start
 * spends most of a minute compiling TypeScript, so the step says so before it starts rather than show
 * nothing. The build itself is stood in for by an `npm` that only records what it was asked.
 */
describe('npm start before the app listens', () => {
  it('when TypeScript is to be built, then one line says so before the build starts, and one when it is done', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pagelight-prestart-'));
    const fakeNpm = path.join(dir, 'npm-cli.js');
    writeFileSync(fakeNpm, `process.stdout.write('[npm ' + process.argv.slice(2).join(' ') + ']\\n');`);
    const run = spawnSync(process.execPath, [path.resolve('scripts/build-before-start.js')], {
      env: { PATH: process.env.PATH, npm_execpath: fakeNpm },
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^pagelight: compiling TypeScript .*(about a minute|a few seconds)/);
    expect(lines[1]).toBe('[npm run build]');
    expect(lines[2]).toMatch(/^pagelight: compiled in \d+ s, starting the app/);
  });
});
