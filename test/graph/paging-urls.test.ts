import type { IncomingMessage, ServerResponse } from 'node:http';
import { startEmulator, SEED_IDS, type RunningEmulator } from '@pagelight/graph-emulator';
import { EMPTY_PAGE_HOPS } from '../../src/graph/client';
import { createLogger } from '../../src/log/logger';
import { accountsSchema, feedSchema } from '../../src/graph/schemas';
import { stubGraphClient } from '../support/graph-client';
import { LogCapture, listen } from '../support/stack';

/**
 * The provider's `paging.next` is what says there is more, and an empty page can carry it without cursors; its
 * URL carries the token (`access_token=`). The app takes only the `after` cursor from it, only when it names the
 * origin, version and path asked for, and no answer it keeps holds the URL
 * (docs/provider-interface.md#paging, docs/architecture.md#security-rules).
 */
const TOKENED = 'https://graph.facebook.com/v26.0/1/feed?access_token=EAAB-issued-page-token&limit=25&after=QVFI';
const PAGE = '1234';
const POST = { id: `${PAGE}_1`, created_time: '2026-11-20T10:00:00+0000', message: 'Hello' };

describe('paging URLs', () => {
  it.each([
    [
      'a feed page',
      feedSchema,
      { data: [], paging: { cursors: { before: 'b', after: 'a' }, next: TOKENED, previous: TOKENED } },
    ],
    ['a list of Pages', accountsSchema, { data: [], paging: { cursors: { after: 'a' }, next: TOKENED } }],
  ])(
    'when %s comes with next/previous URLs, then the parsed answer keeps where next points and its after cursor, not the URL',
    (_what, schema, answer) => {
      const parsed = schema.parse(answer) as { paging?: { next?: unknown; previous?: unknown; cursors?: unknown } };
      expect(JSON.stringify(parsed)).not.toContain('access_token');
      expect(JSON.stringify(parsed)).not.toContain('EAAB');
      expect(parsed.paging?.next).toEqual({
        origin: 'https://graph.facebook.com',
        path: '/v26.0/1/feed',
        after: 'QVFI',
      });
      expect(parsed.paging?.cursors).toEqual(answer.paging.cursors);
    },
  );
});

/** A stub provider whose feed answers are `answers`, in turn; the queries it got are kept. */
async function stubFeed(answers: ((origin: string) => unknown)[]) {
  const queries: Record<string, string>[] = [];
  const provider = await listen((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    queries.push(Object.fromEntries(url.searchParams));
    const answer = answers[Math.min(queries.length - 1, answers.length - 1)]!;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(answer(provider.url)));
  });
  const logs = new LogCapture();
  const graph = stubGraphClient(provider.url, { logger: createLogger({ level: 'debug', destination: logs }) });
  return { queries, logs, graph, close: async () => (graph.close(), await provider.close()) };
}

const link = (origin: string, path: string, query: string) => `${origin}${path}?access_token=EAAB-page-token&${query}`;

describe('following next', () => {
  it('when an empty page has next and no cursors, then the feed goes on by the after of next, and sends nothing else of it', async () => {
    const p = await stubFeed([
      (o) => ({ data: [], paging: { next: link(o, `/v26.0/${PAGE}/feed`, 'limit=100&fields=id&after=GAP1') } }),
      () => ({ data: [POST], paging: { cursors: { before: 'B', after: 'A' } } }),
    ]);
    try {
      const page = await p.graph.feed('page-token', PAGE, { after: 'START' });
      expect(page.data).toEqual([POST]);
      expect(p.queries.map((q) => q.after)).toEqual(['START', 'GAP1']);
      expect(p.queries[1]).toMatchObject({ limit: '25' });
      expect(p.queries[1]!.access_token).toBeUndefined();
      expect(p.queries[1]!.fields).not.toBe('id');
    } finally {
      await p.close();
    }
  });

  it(`when every page is empty with next, then the read stops after ${EMPTY_PAGE_HOPS} hops and returns the empty page, still with more`, async () => {
    const p = await stubFeed([(o) => ({ data: [], paging: { next: link(o, `/v26.0/${PAGE}/feed`, `after=GAP`) } })]);
    try {
      const page = await p.graph.feed('page-token', PAGE, { after: 'START' });
      expect(p.queries).toHaveLength(1 + EMPTY_PAGE_HOPS);
      expect(page).toEqual({ data: [], paging: { cursors: { after: 'GAP' }, next: true } });
    } finally {
      await p.close();
    }
  });

  it('when a page has next, then what the client returns says there is more with that cursor and holds no URL', async () => {
    const p = await stubFeed([
      (o) => ({
        data: [POST],
        paging: { cursors: { before: 'B', after: 'A' }, next: link(o, `/v26.0/${PAGE}/feed`, 'after=NEXT') },
      }),
    ]);
    try {
      const page = await p.graph.feed('page-token', PAGE);
      expect(page.paging).toEqual({ cursors: { before: 'B', after: 'NEXT' }, next: true });
      expect(JSON.stringify(page)).not.toContain('access_token');
    } finally {
      await p.close();
    }
  });

  it.each([
    ['another origin', () => link('https://graph.example.net', `/v26.0/${PAGE}/feed`, 'after=X'), 'another origin'],
    ['another version', (o: string) => link(o, `/v25.0/${PAGE}/feed`, 'after=X'), 'another API version'],
    ['another page', (o: string) => link(o, '/v26.0/999/feed', 'after=X'), 'another path'],
    ['another edge', (o: string) => link(o, `/v26.0/${PAGE}/posts`, 'after=X'), 'another path'],
    ['no after cursor', (o: string) => link(o, `/v26.0/${PAGE}/feed`, 'until=1439243428'), 'no after cursor'],
    ['not a URL', () => 'not a url at all', 'another origin'],
  ])(
    'when next names %s, then it is not followed: no more, and a warning without the URL',
    async (_what, next, reason) => {
      const p = await stubFeed([(o) => ({ data: [], paging: { next: next(o) } })]);
      try {
        const page = await p.graph.feed('page-token', PAGE, { after: 'START' });
        expect(p.queries).toHaveLength(1);
        expect(page.data).toEqual([]);
        expect(page.paging?.next).toBeFalsy();
        const warning = p.logs.lines.find((l) => l.includes('provider paging link not followed'));
        expect(warning).toContain(reason);
        expect(warning).toContain('"list":"feed"');
        expect(warning).not.toMatch(/EAAB|access_token|http/);
      } finally {
        await p.close();
      }
    },
  );
});

describe('against the emulator, whose paging URLs carry the token as the provider’s do', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 'test',
      clients: [
        {
          clientId: '1',
          clientSecret: 'secret-for-tests-01',
          redirectUri: 'http://app.test/auth/callback',
          name: 'Test',
        },
      ],
    });
  });
  afterAll(() => emulator.close());

  it('when the feed is walked to its end, then no answer holds the page token', async () => {
    const pageId = SEED_IDS.pages.bakery;
    const { access_token: token } = emulator.controls.issueToken({ userId: SEED_IDS.users.ada, pageId });
    const graph = stubGraphClient(emulator.url);
    try {
      let after: string | undefined;
      let pages = 0;
      do {
        const page = await graph.feed(token, pageId, { after });
        // A plain boolean: the answer holds tens of kilobytes, not worth printing.
        expect(JSON.stringify(page).includes(token)).toBe(false);
        after = page.paging?.next ? page.paging.cursors?.after : undefined;
        pages++;
      } while (after !== undefined && pages < 20);
      expect(pages).toBeGreaterThan(1);
    } finally {
      graph.close();
    }
  });
});
