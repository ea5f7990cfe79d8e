/**
 * `npm run examples`: applies each worked example in examples/ to a copy of the committed tree and runs what the
 * example says proves it, so an example that no longer fits the code fails CI instead of misleading a reader
 * (examples/README.md). Each example is applied on its own, to a fresh copy: they are independent changes.
 *
 * Per example (examples/<name>/change.diff, explained by its README.md):
 *  1. `git archive HEAD` into a temporary folder, with the repository's node_modules linked in;
 *  2. `git apply` the diff there (a diff that no longer applies is the first way an example rots);
 *  3. type-check the tree (`tsc --noEmit`), then run the jest files the diff adds or changes and its README names.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const examplesDir = path.join(root, 'examples');

function run(command: string, args: string[], cwd: string, input?: Buffer): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { cwd, input, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout?.toString() ?? ''}${result.stderr?.toString() ?? ''}`;
  return { ok: result.status === 0, output };
}

/**
 * What proves an example: the test files its diff adds or changes, and the ones its README names in backticks
 * (tests that already guard what the change touches, such as the catalogs' or the docs' own).
 */
export function testFilesOf(diff: string, readme: string): string[] {
  const files = new Set<string>();
  for (const match of diff.matchAll(/^\+\+\+ b\/(\S+\.test\.ts)$/gm)) files.add(match[1]!);
  for (const match of readme.matchAll(/`(test\/[\w./-]+\.test\.ts)`/g)) files.add(match[1]!);
  return [...files];
}

function copyOfHead(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pagelight-example-'));
  const archive = spawnSync('git', ['archive', '--format=tar', 'HEAD'], { cwd: root, maxBuffer: 256 * 1024 * 1024 });
  if (archive.status !== 0) throw new Error(`git archive failed: ${archive.stderr.toString()}`);
  const untar = run('tar', ['-x', '-C', dir], root, archive.stdout);
  if (!untar.ok) throw new Error(`tar failed: ${untar.output}`);
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

function tryExample(name: string): string | undefined {
  const diffPath = path.join(examplesDir, name, 'change.diff');
  if (!existsSync(diffPath)) return `${name}: no change.diff`;
  const diff = readFileSync(diffPath, 'utf8');
  const readmePath = path.join(examplesDir, name, 'README.md');
  const tests = testFilesOf(diff, existsSync(readmePath) ? readFileSync(readmePath, 'utf8') : '');
  if (tests.length === 0) return `${name}: the diff adds or changes no *.test.ts, so nothing proves it`;
  const dir = copyOfHead();
  try {
    const applied = run('git', ['apply', '--whitespace=nowarn', diffPath], dir);
    if (!applied.ok) return `${name}: the diff no longer applies to main:\n${applied.output}`;
    const typed = run(
      process.execPath,
      [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'],
      dir,
    );
    if (!typed.ok) return `${name}: the changed tree does not type-check:\n${typed.output}`;
    const jest = require.resolve('jest/bin/jest');
    const tested = run(process.execPath, [jest, '--runInBand', ...tests], dir);
    if (!tested.ok) return `${name}: its tests fail:\n${tested.output}`;
    process.stdout.write(`ok   ${name}: applies, type-checks, ${tests.length} test file(s) pass\n`);
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main(): void {
  const names = readdirSync(examplesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const failures = names.map(tryExample).filter((failure): failure is string => failure !== undefined);
  for (const failure of failures) process.stdout.write(`FAIL ${failure}\n`);
  process.stdout.write(`${names.length - failures.length} of ${names.length} examples pass\n`);
  if (names.length === 0 || failures.length > 0) process.exitCode = 1;
}

if (require.main === module) main();
