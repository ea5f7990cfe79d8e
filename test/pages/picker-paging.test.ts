import { SEED_IDS, TEST_SEED } from '@pagelight/graph-emulator';
import { ACCOUNTS_CALLS } from '../../src/graph/client';
import { signedInAgent, signIn } from '../support/flow';
import { agentFor, listen, startStack, type Stack, useStack } from '../support/stack';
import { stubGraphClient } from '../support/graph-client';
import { links } from '../support/dom';

/**
 * A provider whose /me/accounts gives one page per call, `total` in all, with the real paging shape: `next` names
 * the person by id and carries the token. The calls listed in `empty` come back empty, with `next` and no cursors.
 */
async function pagedProvider(total: number, empty: number[] = []) {
  const calls: (string | null)[] = [];
  const provider = await listen((req, res) => {
    const after = new URL(req.url ?? '/', 'http://x').searchParams.get('after');
    calls.push(after);
    const i = after === null ? 0 : Number(/\d+/.exec(after)![0]) + (after.startsWith('gap') ? 0 : 1);
    const next = (cursor: string) =>
      `${provider.url}/v26.0/4242/accounts?access_token=EAAB-user&limit=100&after=${cursor}`;
    res.setHeader('content-type', 'application/json');
    if (empty.includes(calls.length - 1)) {
      res.end(JSON.stringify({ data: [], paging: { next: next(`gap${i}`) } }));
      return;
    }
    const more = i + 1 < total;
    res.end(
      JSON.stringify({
        data: [{ id: String(1000 + i), name: `Page ${i}` }],
        paging: { cursors: { before: `c${i}`, after: `c${i}` }, ...(more ? { next: next(`c${i}`) } : {}) },
      }),
    );
  });
  const client = stubGraphClient(provider.url);
  return { calls, client, close: async () => (client.close(), await provider.close()) };
}

/** docs/provider-interface.md#managed-pages */
describe('the picker sees every page', () => {
  it('when /me/accounts is paged, then next is followed by its after cursor until it is absent', async () => {
    const p = await pagedProvider(3);
    try {
      const list = await p.client.listPages('user-token');
      expect(list.pages.map((x) => x.name)).toEqual(['Page 0', 'Page 1', 'Page 2']);
      expect(list.cut).toBe(false);
      expect(p.calls).toEqual([null, 'c0', 'c1']);
    } finally {
      await p.close();
    }
  });

  it('when a call comes back empty with next and no cursors, then the list goes on past it by the after of next', async () => {
    const p = await pagedProvider(3, [1]);
    try {
      const list = await p.client.listPages('user-token');
      expect(list.pages.map((x) => x.name)).toEqual(['Page 0', 'Page 1', 'Page 2']);
      expect(list.cut).toBe(false);
      expect(p.calls).toEqual([null, 'c0', 'gap1', 'c1']);
    } finally {
      await p.close();
    }
  });

  it(`when the list goes on past ${ACCOUNTS_CALLS} calls, then it stops there and says it was cut`, async () => {
    const p = await pagedProvider(50);
    try {
      const list = await p.client.listPages('user-token');
      expect(p.calls).toHaveLength(ACCOUNTS_CALLS);
      expect(list.pages).toHaveLength(ACCOUNTS_CALLS);
      expect(list.cut).toBe(true);
    } finally {
      await p.close();
    }
  });
});

describe('the picker when no page shows', () => {
  const stack = useStack();

  it('when the person has no page to list, then the picker explains business portfolios and unselected pages, and offers to log in again with rerequest', async () => {
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.alan });
    const picker = await agent.get('/pages').expect(200);
    expect(picker.text).toContain('business portfolio');
    expect(picker.text).toContain('selected');
    expect(links(picker.text).map((l) => l.href)).toContain('/auth/login?rerequest=1');
  });
});

/** The names of the many-pages person's Pages, in the order /me/accounts lists them. */
const branchNames = (): string[] =>
  TEST_SEED.users
    .find((u) => u.id === SEED_IDS.users.fairfax)!
    .roles.map((r) => TEST_SEED.pages.find((p) => p.id === r.pageId)!.name);

describe('the picker against the emulator’s hard-to-reach seeded people', () => {
  let stack: Stack;
  afterEach(() => stack.close());

  it('when the person manages Pages only through a business portfolio, then the picker is empty and explains why', async () => {
    stack = await startStack();
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.somerville });
    const picker = await agent.get('/pages').expect(200);
    expect(picker.text).toContain('You manage no Pages that Pagelight can see');
    expect(picker.text).toContain('business portfolio');
    expect(picker.text).not.toContain('Somerville Instrument Shop');
  });

  it('when the person manages 30 Pages listed 10 a call, then the picker lists all of them after 3 calls, uncut', async () => {
    stack = await startStack();
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.fairfax });
    stack.emulator.controls.clearLog();
    const picker = await agent.get('/pages').expect(200);
    for (const name of branchNames()) expect(picker.text).toContain(name);
    expect(stack.emulator.controls.calls({ path: '/me/accounts' })).toBe(3);
    expect(picker.text).not.toContain('You manage more Pages than');
  });

  it(`when the Pages need more than ${ACCOUNTS_CALLS} calls, then the picker shows the first ones and says the list was cut`, async () => {
    stack = await startStack({ emulator: { accountsPageSize: 2 } });
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.fairfax });
    stack.emulator.controls.clearLog();
    const picker = await agent.get('/pages').expect(200);
    expect(stack.emulator.controls.calls({ path: '/me/accounts' })).toBe(ACCOUNTS_CALLS);
    expect(picker.text).toContain(branchNames()[19]);
    expect(picker.text).not.toContain(branchNames()[20]);
    expect(picker.text).toContain('You manage more Pages than Pagelight lists at once: only the first 20 are shown.');
  });

  it('when the person keeps only one of their Pages at the dialog, then the picker lists only that one', async () => {
    stack = await startStack();
    const agent = agentFor(stack);
    // The dialog driver unchecks any box whose value is listed, Page boxes included.
    await signIn(agent, { user: SEED_IDS.users.ada, decline: [SEED_IDS.pages.sparse] });
    const picker = await agent.get('/pages').expect(200);
    expect(picker.text).toContain('Lovelace Analytical Bakery');
    expect(picker.text).not.toContain('Difference Engine Repairs');
  });
});
