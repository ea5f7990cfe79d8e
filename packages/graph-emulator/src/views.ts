/**
 * Where the emulator's templates and stylesheet live. The same code runs from
 * `src/` (ts-jest) and from `dist/` (compiled), so the folder is found by
 * walking up to the package root instead of a fixed relative path.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const MARKER = path.join('views', 'dialog.ejs');

export function providerViewsDir(start: string = __dirname): string {
  return path.join(packageDir(start), 'views');
}

/** The package's root folder (its views/, seeds/, package.json), found from `src/` and `dist/` alike. */
export function packageDir(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    if (existsSync(path.join(dir, MARKER))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(`graph-emulator: cannot find ${MARKER} above ${start}; is the package's views/ folder deployed?`);
    }
    dir = parent;
  }
}
