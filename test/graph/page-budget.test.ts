import { SEED_IDS } from '@pagelight/graph-emulator';
import type { GraphClient } from '../../src/graph/client';
import { GraphApiError } from '../../src/graph/errors';
import { connectedAgent } from '../support/flow';
import { listen, useStack, type Listening } from '../support/stack';
import { stubGraphClient } from '../support/graph-client';
import { SOURDOUGH } from '../support/posts';

/**
 * Every call made with a Page's token counts against that Page's budget (docs/provider-interface.md#usage-headers),
 * whatever its path looks like: the Page is the caller's to say, not guessed from `/PAGEID_POSTID` or a comment id.
 */
const PAGE = '123';
const BAKERY = SEED_IDS.pages.bakery;
const closedFor = (minutes: number) =>
  JSON.stringify({
    [PAGE]: [
      { type: 'pages', call_count: 100, total_cputime: 10, total_time: 10, estimated_time_to_regain_access: minutes },
    ],
  });

async function providerClosingThePage() {
  const seen: string[] = [];
  const provider = await listen((req, res) => {
    seen.push((req.url ?? '').split('?')[0]!);
    res.setHeader('content-type', 'application/json');
    // The Page's own details answer, then say its budget is closed for 10 minutes.
    res.setHeader('x-business-use-case-usage', closedFor(10));
    res.end(JSON.stringify({ id: PAGE, name: 'Bakery' }));
  });
  return { seen, provider };
}

describe("a Page's budget closed by the provider", () => {
  let seen: string[];
  let provider: Listening;
  let client: GraphClient;
  /** Calls the provider saw once it had closed the Page's budget. */
  let calls: number;
  beforeEach(async () => {
    ({ seen, provider } = await providerClosingThePage());
    client = stubGraphClient(provider.url);
    await client.pageDetails('page-token', PAGE);
    calls = seen.length;
  });
  afterEach(async () => {
    client.close();
    await provider.close();
  });

  it('when the Page is closed, then a read of one of its posts, its comments, a reply thread or its post insights is held back without a call', async () => {
    const held = [
      client.post('page-token', PAGE, `${PAGE}_456`),
      client.comments('page-token', PAGE, `${PAGE}_456`),
      client.comments('page-token', PAGE, '456_789', { replies: true }),
      client.postInsights('page-token', PAGE, `${PAGE}_456`, 'post_impressions_unique'),
    ];
    for (const read of held) {
      await expect(read).rejects.toBeInstanceOf(GraphApiError);
      await expect(read).rejects.toMatchObject({ status: 429, graph: { code: 80001 } });
    }
    expect(seen).toHaveLength(calls);
  });

  it('when another Page is closed, then reads of this Page’s posts and comments still go out', async () => {
    await client.comments('other-token', '999', '456_789', { replies: true }).catch(() => undefined);
    expect(seen).toHaveLength(calls + 1);
  });
});

describe('GET /pages/:pageId/posts/:postId with the Page’s budget closed', () => {
  const stack = useStack(
    { env: { FB_SCOPES: 'pages_show_list pages_read_engagement pages_read_user_content read_insights' } },
    { perTest: true },
  );

  it('when the provider closed the Page’s budget, then its post page, a later page of comments and a reply thread are 429 without a call', async () => {
    const person = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.setRateLimit({ calls: 1, windowMs: 10 * 60_000, headersAfter: 0 });
    await person.get(`/pages/${BAKERY}`).expect(429);
    const calls = stack.emulator.controls.requestLog.length;
    const post = `/pages/${BAKERY}/posts/${SOURDOUGH}`;
    const comment = `${SOURDOUGH.split('_')[1]}_1`;
    for (const url of [
      post,
      `${post}?after=${Buffer.from('later').toString('base64url')}`,
      `${post}?replies=${comment}`,
    ])
      await person.get(url).expect(429);
    expect(stack.emulator.controls.requestLog.slice(calls)).toEqual([]);
  });
});
