import { SEED_IDS } from '@pagelight/graph-emulator';
import { ACCOUNTS_CALLS, GraphClient } from '../../src/graph/client';
import { login } from '../support/flow';
import { agentFor, listen, startStack, type Stack } from '../support/stack';

/** A provider whose /me/accounts gives one page per call, `total` in all, with the real paging shape. */
async function pagedProvider(total: number) {
  const calls: (string | null)[] = [];
  const provider = await listen((req, res) => {
    const after = new URL(req.url ?? '/', 'http://x').searchParams.get('after');
    calls.push(after);
    const i = after === null ? 0 : Number(after.slice(1)) + 1;
    const more = i + 1 < total;
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        data: [{ id: String(1000 + i), name: `Page ${i}` }],
        paging: { cursors: { before: `c${i}`, after: `c${i}` }, ...(more ? { next: 'https://provider/next' } : {}) },
      }),
    );
  });
  const client = new GraphClient({
    graphUrl: provider.url,
    apiVersion: 'v26.0',
    appId: '1',
    appSecret: '',
    redirectUri: 'http://app.test/auth/callback',
    timeoutMs: 1000,
    now: Date.now,
  });
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
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('when the person has no page to list, then the picker explains business portfolios and unselected pages, and offers to log in again with rerequest', async () => {
    const agent = agentFor(stack);
    await login(agent, { user: SEED_IDS.users.alan });
    const picker = await agent.get('/pages').expect(200);
    expect(picker.text).toContain('business portfolio');
    expect(picker.text).toContain('selected');
    expect(picker.text).toContain('href="/auth/login?rerequest=1"');
  });
});
