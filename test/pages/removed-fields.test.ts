import { SEED_IDS } from '@pagelight/graph-emulator';
import { connectedAgent } from '../support/flow';
import { useStack } from '../support/stack';
import { findAll, headingTexts, textOf } from '../support/dom';

const BAKERY = SEED_IDS.pages.bakery;

/** The operator's warning for one removed field (docs/operations.md#removed-fields). */
const warningsFor = (lines: readonly string[], field: string) =>
  lines.filter(
    (line) => line.includes('"msg":"the provider removed a Page field') && line.includes(`"field":"${field}"`),
  );

/** Page detail reads the provider refused (400), and all detail reads, so far. */
function detailReads(stack: { emulator: { controls: { log: readonly { path: string; status: number | null }[] } } }) {
  const reads = stack.emulator.controls.log.filter((e) => e.path === `/v27.0/${BAKERY}`);
  return { all: reads.length, refused: reads.filter((e) => e.status === 400).length };
}

/** A Page field the provider removed out of cycle (docs/provider-interface.md#removed-fields). */
describe('a page whose fields the provider removed', () => {
  const stack = useStack({}, { perTest: true });

  it('when hours and website were removed, then the page shows the rest, and the operator gets one warning per field', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.setRemovedFields(['hours', 'website']);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    expect(page.text).toContain('Lovelace Analytical Bakery');
    expect(page.text).toContain('Bread computed to perfection since 1843.');
    expect(headingTexts(page.text, 'h3')).not.toContain('Opening hours');
    expect(findAll(page.text, 'dt').map(textOf)).not.toContain('Website');
    // A second view (the page cache is off in tests) asks for neither field and fails no call first.
    const before = detailReads(stack);
    await agent.get(`/pages/${BAKERY}`).expect(200);
    const after = detailReads(stack);
    expect([after.all - before.all, after.refused - before.refused]).toEqual([1, 0]);
    const lines = stack.logs.lines;
    for (const field of ['hours', 'website']) {
      const warnings = warningsFor(lines, field);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('"apiVersion":"v27.0"');
      expect(warnings[0]).toContain(`Tried accessing nonexisting field (${field}) on node type (Page)`);
    }
    const asked = stack.emulator.controls.log.filter((e) => e.path === `/v27.0/${BAKERY}`).at(-1)?.query.fields ?? '';
    expect(asked.split(',')).not.toEqual(expect.arrayContaining(['hours']));
    expect(asked).toContain('about');
  });

  it('when only hours was removed, then the page keeps its website and address', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.setRemovedFields(['hours']);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    expect(headingTexts(page.text, 'h3')).not.toContain('Opening hours');
    expect(textOf(page.text)).toContain("St James's Square");
    expect(findAll(page.text, 'dt').map(textOf)).toContain('Website');
    expect(warningsFor(stack.logs.lines, 'hours')).toHaveLength(1);
  });

  it('when the provider refuses name, a field the page cannot do without, then the normal error page and no retry', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.setRemovedFields(['name']);
    const before = detailReads(stack);
    const res = await agent.get(`/pages/${BAKERY}`).expect(502);
    expect(res.text).toContain('Tried accessing nonexisting field (name) on node type (Page)');
    expect(detailReads(stack).all - before.all).toBe(1);
    expect(warningsFor(stack.logs.lines, 'name')).toEqual([]);
  });
});
