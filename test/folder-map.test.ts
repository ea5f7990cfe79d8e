import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..');
/** The trees whose every folder the map must name (docs/architecture.md#folders). */
const MAPPED = ['src', 'packages/graph-emulator/src'];

/** The first column of the table under "## Folders": every row that starts with a `path`. */
function mappedPaths(): string[] {
  const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Folders\n'), doc.indexOf('\n## ', doc.indexOf('\n## Folders\n') + 1));
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1] ?? '');
}

function foldersUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = relative(ROOT, join(ROOT, dir, entry.name));
      return [`${path}/`, ...foldersUnder(path)];
    });
}

describe('the folder map in docs/architecture.md#folders', () => {
  it('when a folder exists under src/ or the emulator’s src/, then the map lists it', () => {
    const mapped = new Set(mappedPaths());
    expect(MAPPED.flatMap(foldersUnder).filter((folder) => !mapped.has(folder))).toEqual([]);
  });

  it('when the map lists a path, then it exists, and the map lists it once', () => {
    const mapped = mappedPaths();
    expect(mapped.length).toBeGreaterThan(MAPPED.length);
    expect(mapped.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
    expect(mapped.filter((path, i) => mapped.indexOf(path) !== i)).toEqual([]);
  });
});
