/**
 * The package stands on its own (README#outside-this-repository): its tsconfig extends nothing around it, and
 * neither its code, its tests nor its documents point at a file outside the package. `.ci/emulator-package`
 * proves the build and the install; this catches a reference before CI does.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : files(full);
    return /\.(ts|md|json|ejs|js|sh)$/.test(entry.name) || entry.name === 'Dockerfile' ? [full] : [];
  });
}

describe('the package stands on its own', () => {
  it('when its tsconfig is read, then it extends nothing', () => {
    for (const name of ['tsconfig.json', 'tsconfig.test.json']) {
      const text = readFileSync(path.join(ROOT, name), 'utf8');
      const extended = /"extends"\s*:\s*"([^"]+)"/.exec(text)?.[1];
      if (extended !== undefined) expect(path.resolve(ROOT, extended).startsWith(ROOT + path.sep)).toBe(true);
    }
  });

  it('when its files are read, then none points at a file outside the package or at the app’s documents', () => {
    const outside = files(ROOT).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      // A path up and out of the package to a file (the repository's base tsconfig, say), or one of the app's documents.
      const up = [...text.matchAll(/(?:\.\.\/){2,}[\w./-]*\.(?:md|json|ts|js)\b/g)]
        .map((m) => m[0])
        .filter((p) => !path.resolve(path.dirname(file), p).startsWith(ROOT + path.sep));
      const appDocs = [...text.matchAll(/\bdocs\/[\w-]+\.md/g)]
        .map((m) => m[0])
        .filter((doc) => !existsSync(path.join(ROOT, doc)));
      return [...up, ...appDocs].map((hit) => `${path.relative(ROOT, file)}: ${hit}`);
    });
    expect(outside).toEqual([]);
  });
});
