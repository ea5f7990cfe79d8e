import { GraphApiError, ProviderUnavailableError } from '../../src/graph/errors';
import { REACTION_KINDS } from '../../src/graph/schemas';
import { stubGraphClient } from '../support/graph-client';
import { listen } from '../support/stack';

const POST = '1_2';
const post = { id: POST, created_time: '2026-10-01T12:00:00+0000', message: 'hi' };
const count = (n: number) => ({ code: 200, body: JSON.stringify({ data: [], summary: { total_count: n } }) });
const expired = {
  code: 400,
  body: JSON.stringify({
    error: { message: 'Error validating access token', type: 'OAuthException', code: 190, error_subcode: 463 },
  }),
};

/** A provider that answers the post page's batch with `parts`, and what it was sent. */
async function batchProvider(parts: unknown[]) {
  const sent: { method: string; path: string; form: URLSearchParams }[] = [];
  const provider = await listen((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      sent.push({ method: req.method ?? '', path: req.url ?? '', form: new URLSearchParams(body) });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(parts));
    });
  });
  return { provider, sent };
}

/** The post page's one batch call (docs/provider-interface.md#batch-requests), each part checked like a call. */
describe('GraphClient.post', () => {
  it('when every part answers, then the post with each kind’s count, from one POST to the version’s root', async () => {
    const { provider, sent } = await batchProvider([
      { code: 200, body: JSON.stringify(post) },
      ...REACTION_KINDS.map((_, i) => count(i)),
    ]);
    const client = stubGraphClient(provider.url, { appSecret: 'app-secret-for-proof' });
    try {
      const read = await client.post('page-token-abcdef', '1', POST);
      expect(read.reactionsByKind).toEqual({ like: 0, love: 1, care: 2, haha: 3, wow: 4, sad: 5, angry: 6 });
      expect(read.message).toBe('hi');
    } finally {
      client.close();
      await provider.close();
    }
    expect(sent).toHaveLength(1);
    expect([sent[0]!.method, sent[0]!.path]).toEqual(['POST', '/v26.0/']);
    expect(sent[0]!.form.get('appsecret_proof')).toMatch(/^[0-9a-f]{64}$/);
    const ops = JSON.parse(sent[0]!.form.get('batch')!) as { relative_url: string }[];
    expect(ops[2]!.relative_url).toBe(`${POST}/reactions?type=LOVE&summary=total_count&limit=0`);
  });

  it('when one kind’s part is an error or missing, then that kind is unknown (null), never 0', async () => {
    const { provider } = await batchProvider([
      { code: 200, body: JSON.stringify(post) },
      count(5),
      { code: 403, body: JSON.stringify({ error: { message: '(#4) limit', type: 'OAuthException', code: 4 } }) },
      null,
      count(0),
    ]);
    const client = stubGraphClient(provider.url);
    try {
      const read = await client.post('page-token-abcdef', '1', POST);
      expect(read.reactionsByKind).toEqual({
        like: 5,
        love: null,
        care: null,
        haha: 0,
        wow: null,
        sad: null,
        angry: null,
      });
    } finally {
      client.close();
      await provider.close();
    }
  });

  it('when the post’s part is a token error inside the 200, then the same GraphApiError a single call throws', async () => {
    const { provider } = await batchProvider([expired, ...REACTION_KINDS.map(() => expired)]);
    const client = stubGraphClient(provider.url);
    try {
      const err = (await client.post('page-token-abcdef', '1', POST).catch((e: unknown) => e)) as GraphApiError;
      expect(err).toBeInstanceOf(GraphApiError);
      expect([err.graph.code, err.graph.subcode]).toEqual([190, 463]);
    } finally {
      client.close();
      await provider.close();
    }
  });

  it('when the post’s part is not the shape of a post, then the provider failed (bad_response)', async () => {
    const { provider } = await batchProvider([{ code: 200, body: '{"id":"nope"}' }]);
    const client = stubGraphClient(provider.url);
    try {
      const err = (await client
        .post('page-token-abcdef', '1', POST)
        .catch((e: unknown) => e)) as ProviderUnavailableError;
      expect(err).toBeInstanceOf(ProviderUnavailableError);
      expect(err.reason).toBe('bad_response');
    } finally {
      client.close();
      await provider.close();
    }
  });
});
