import { startEmulator, SEED_IDS, type RunningEmulator } from '@pagelight/graph-emulator';
import { accountsSchema, feedSchema } from '../../src/graph/schemas';
import { stubGraphClient } from '../support/graph-client';

/**
 * The provider's `paging.next` and `previous` are whole URLs with the token in them (`access_token=`). What the
 * app keeps of an answer — and the page cache stores, in memory or in Redis — holds the cursors and whether
 * there is more, never those URLs (docs/architecture.md#security-rules).
 */
const TOKENED = 'https://graph.facebook.com/v26.0/1/feed?access_token=EAAB-issued-page-token&limit=25&after=QVFI';

describe('paging URLs', () => {
  it.each([
    [
      'a feed page',
      feedSchema,
      { data: [], paging: { cursors: { before: 'b', after: 'a' }, next: TOKENED, previous: TOKENED } },
    ],
    ['a list of Pages', accountsSchema, { data: [], paging: { cursors: { after: 'a' }, next: TOKENED } }],
  ])(
    'when %s comes with next/previous URLs, then the parsed answer keeps that there is more, not the URLs',
    (_what, schema, answer) => {
      const parsed = schema.parse(answer) as { paging?: { next?: unknown; previous?: unknown; cursors?: unknown } };
      expect(JSON.stringify(parsed)).not.toContain('access_token');
      expect(JSON.stringify(parsed)).not.toContain('EAAB');
      expect(parsed.paging?.next).toBe(true);
      expect(parsed.paging?.cursors).toEqual(answer.paging.cursors);
    },
  );

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
});
