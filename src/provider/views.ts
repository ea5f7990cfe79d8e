/**
 * Where the emulator's templates and stylesheet live. The same code runs from
 * `src/provider` (ts-jest) and from `dist/provider` (compiled), so the folder
 * is found by walking up to the project root instead of a fixed relative path.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const MARKER = path.join('views', 'provider', 'dialog.ejs');

export function providerViewsDir(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    if (existsSync(path.join(dir, MARKER))) return path.join(dir, 'views', 'provider');
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(`Provider emulator: cannot find ${MARKER} above ${start}; is the views/ folder deployed?`);
    }
    dir = parent;
  }
}
