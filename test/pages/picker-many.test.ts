import { MAX_LISTED_PAGES } from '../../src/graph/client';
import { LISTED_AT_ONCE } from '../../src/pages/picker-view';
import { signedInAgent } from '../support/flow';
import { manyPagesSeed, WITH_BUSINESS } from '../support/many-pages';
import { stubGraphClient } from '../support/graph-client';
import { listen, startStack, type Stack } from '../support/stack';
import { attr, find, findAll, textOf } from '../support/dom';

const MANY = '1500000000000001';
const PORTFOLIO = '1500000000000002';
const seedOf = (pages: number) => manyPagesSeed([{ id: MANY, portfolio: PORTFOLIO, pages }]);

/** What a person sees of the picker: the Pages listed (not hidden) and the notes above them. */
function picker(html: string) {
  return {
    names: findAll(html, { tag: 'li', class: 'picker-item' })
      .filter((li) => attr(li, 'hidden') === undefined)
      .map((li) => textOf(find(li, 'h2')!)),
    notes: findAll(html, { tag: 'p', class: 'notice' }).map(textOf),
    count: textOf(find(html, { id: 'picker-count' })!),
  };
}

/** docs/architecture.md#picker: a long list of Pages costs a bounded view, and the filter still finds any Page. */
describe('the picker with many Pages', () => {
  let stack: Stack;
  afterEach(() => stack.close());

  it(`when the person manages 750 Pages, then ${LISTED_AT_ONCE} are listed with a note, and the filter finds the last one`, async () => {
    stack = await startStack({ seed: seedOf(750), emulator: { accountsPageSize: 100 }, env: WITH_BUSINESS });
    const agent = await signedInAgent(stack, { user: MANY });
    const first = picker((await agent.get('/pages').expect(200)).text);
    expect(first.names).toHaveLength(LISTED_AT_ONCE);
    expect(first.notes).toContain(
      `The first ${LISTED_AT_ONCE} of 750 Pages are listed. Type a name in the filter to find any of the others.`,
    );
    const found = picker((await agent.get('/pages?q=branch%20750').expect(200)).text);
    expect(found.names).toEqual(['Branch 750']);
    expect(found.count).toBe('1 of 750 Pages match “branch 750”.');
  });

  it(`when a hostile provider lists 1,000 Pages a call, then ${MAX_LISTED_PAGES} are kept and the list says it was cut`, async () => {
    const calls: string[] = [];
    const provider = await listen((req, res) => {
      const after = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('after') ?? 0);
      calls.push(String(after));
      // The same Pages again and again among new ones: duplicates cost a set lookup each.
      const data = Array.from({ length: 1000 }, (_, i) => ({
        id: String(1600000000000001 + ((after + i) % 5000)),
        name: `Branch ${after + i + 1}`,
      }));
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          data,
          paging: {
            cursors: { after: String(after + 500) },
            next: `${provider.url}/v26.0/me/accounts?after=${after + 500}`,
          },
        }),
      );
    });
    const client = stubGraphClient(provider.url);
    try {
      const list = await client.listPages('user-token');
      expect(list.pages).toHaveLength(MAX_LISTED_PAGES);
      expect(new Set(list.pages.map((p) => p.id)).size).toBe(MAX_LISTED_PAGES);
      expect(list.cut).toBe(true);
      expect(calls).toHaveLength(Math.ceil(MAX_LISTED_PAGES / 500) - 1);
    } finally {
      client.close();
      await provider.close();
    }
  });
});
