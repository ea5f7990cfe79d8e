import fs from 'node:fs';
import path from 'node:path';
import { PAGE_FIELDS, PAGE_FIELDS_PARAM, pageDetailsSchema } from '../../src/graph/schemas';

const DOC = fs.readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'provider-interface.md'), 'utf8');

/** The text of one `## ` section of the document, up to the next. */
function section(title: string): string {
  const start = DOC.indexOf(`\n## ${title}\n`);
  expect(start).toBeGreaterThan(-1);
  const end = DOC.indexOf('\n## ', start + 1);
  return DOC.slice(start, end === -1 ? undefined : end);
}

/**
 * docs/provider-interface.md#page-fields is where a developer adding a Page field starts: its call, its table
 * of fields and the summary row at the top must name exactly the fields the code asks for and parses.
 */
describe('docs/provider-interface.md#page-fields against the code', () => {
  const text = section('Page fields');

  it('when the section gives the call, then its fields are PAGE_FIELDS_PARAM', () => {
    const call = /`GET \{graph\}\/<page_id>\?fields=([^`]+)`/.exec(text)?.[1];
    expect(call).toBe(PAGE_FIELDS_PARAM);
  });

  it('when the summary table at the top gives the call, then its fields are PAGE_FIELDS_PARAM too', () => {
    const row = DOC.split('\n').find((line) => line.startsWith('| [page fields](#page-fields)'));
    expect(/fields=([^`]+)`/.exec(row ?? '')?.[1]).toBe(PAGE_FIELDS_PARAM);
  });

  it('when the table lists each field, then it lists exactly PAGE_FIELDS, each once', () => {
    const rows = text.split('\n').filter((line) => /^\| `/.test(line));
    const named = rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
    expect([...named].sort()).toEqual([...PAGE_FIELDS].sort());
  });

  it('when the response is parsed, then the schema reads exactly the id and PAGE_FIELDS', () => {
    expect(Object.keys(pageDetailsSchema.shape).sort()).toEqual(['id', ...PAGE_FIELDS].sort());
  });
});
