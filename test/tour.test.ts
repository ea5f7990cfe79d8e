import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..');
const TOUR = join(ROOT, 'docs', 'tour.md');
const doc = readFileSync(TOUR, 'utf8');

/** The numbered lines under "## One request": each names the file it stops at first, in backticks. */
function walk(): string[] {
  const start = doc.indexOf('\n## One request');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map((match) => match[1] ?? '');
}

/** Every backticked repository path the tour names: a word with a slash and no spaces, placeholders or routes. */
function namedPaths(): string[] {
  return [...doc.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1] ?? '')
    .filter((text) => /^(src|test|views|docs|examples|packages|scripts|public)\//.test(text) && !/[<:(]/.test(text));
}

describe('the tour in docs/tour.md', () => {
  it('when it walks one request, then it stops at no more than 15 files, each once', () => {
    const files = walk();
    expect(files.length).toBeGreaterThan(5);
    expect(files.length).toBeLessThanOrEqual(15);
    expect(files.filter((file, i) => files.indexOf(file) !== i)).toEqual([]);
  });

  it('when it names a path, then the path exists', () => {
    expect(namedPaths().length).toBeGreaterThan(15);
    expect(namedPaths().filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('when it links to a file of the repository, then the file exists', () => {
    const links = [...doc.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map((match) => match[1] ?? '');
    expect(links.filter((link) => !existsSync(join(dirname(TOUR), link)))).toEqual([]);
  });
});
