import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES } from '../src/config';

/** The first column of the variables table in docs/configuration.md: every row that starts with a `NAME`. */
function documentedVariables(): string[] {
  const doc = readFileSync(join(__dirname, '..', 'docs', 'configuration.md'), 'utf8');
  return [...doc.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1] ?? '');
}

describe('docs/configuration.md', () => {
  it('when the schema reads a variable, then the table lists it', () => {
    const documented = new Set(documentedVariables());
    expect(CONFIG_VARIABLES.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('when the table lists a variable, then the schema reads it, and the table lists it once', () => {
    const documented = documentedVariables();
    expect(documented.filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
    expect(documented.filter((name, i) => documented.indexOf(name) !== i)).toEqual([]);
  });
});
