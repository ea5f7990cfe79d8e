import { SEED_IDS } from '@pagelight/graph-emulator';
import type { PageEvent } from '../../src/live/bus';
import { graphCalls } from '../support/emulator';
import { signInAndConnect } from '../support/flow';
import { agentFor, startStack, type Agent, type Stack } from '../support/stack';
import { afterAnswer, feedDelivery, signatureOf, signed } from './deliver';

const BAKERY = SEED_IDS.pages.bakery;
const VERIFY_TOKEN = 'verify-token-for-tests-0001';
const ADDED = { item: 'status', verb: 'add', post_id: `${BAKERY}_999`, message: 'USER-TEXT-MUST-NOT-BE-LOGGED' };

/** docs/architecture.md#live-updates */
describe('/webhooks/facebook', () => {
  let stack: Stack;
  let owner: Agent;
  const heard: PageEvent[] = [];
  beforeAll(async () => {
    stack = await startStack({ env: { PAGE_CACHE_TTL: '60', FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN } });
    stack.events.subscribe(BAKERY, (e) => heard.push(e));
    owner = agentFor(stack);
    await signInAndConnect(owner, BAKERY);
  });
  afterAll(() => stack.close());
  beforeEach(async () => {
    heard.length = 0;
    // A warm cache: the next view costs nothing upstream unless something dropped it.
    await owner.get(`/pages/${BAKERY}`).expect(200);
  });

  const post = (body: string | Buffer, signature?: string) => {
    const req = agentFor(stack).post('/webhooks/facebook').set('content-type', 'application/json');
    return (signature ? req.set('x-hub-signature-256', signature) : req).send(body);
  };
  const viewCost = async () => {
    const before = graphCalls(stack);
    await owner.get(`/pages/${BAKERY}`).expect(200);
    return graphCalls(stack) - before;
  };

  describe('GET (the handshake)', () => {
    const handshake = (query: Record<string, string>) => agentFor(stack).get('/webhooks/facebook').query(query);

    it('when the mode is subscribe and the verify token matches, then the challenge comes back as plain text, and no cookie is set', async () => {
      const res = await handshake({
        'hub.mode': 'subscribe',
        'hub.verify_token': VERIFY_TOKEN,
        'hub.challenge': '1158201444',
      }).expect(200);
      expect(res.text).toBe('1158201444');
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it.each([
      [
        'a wrong verify token',
        { 'hub.mode': 'subscribe', 'hub.verify_token': 'wrong-token-0001', 'hub.challenge': '1' },
      ],
      [
        'a token that only starts right',
        { 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN.slice(0, 10), 'hub.challenge': '1' },
      ],
      ['another mode', { 'hub.mode': 'unsubscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1' }],
      ['no challenge', { 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN }],
      [
        'a challenge that is markup',
        { 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '<script>' },
      ],
      ['nothing at all', {}],
    ])('when it comes with %s, then 403 and the challenge is not echoed', async (_what, query) => {
      const res = await handshake(query).expect(403);
      expect(res.text).not.toContain('script');
      expect(res.headers['set-cookie']).toBeUndefined();
    });
  });

  describe('POST (deliveries)', () => {
    it('when a signed delivery says a post was added, then 200, the feed (only) goes upstream on the next view, and open pages hear "1 new post"', async () => {
      const { raw, signature } = signed(feedDelivery(BAKERY, ADDED));
      const res = await post(raw, signature).expect(200);
      expect(res.headers['set-cookie']).toBeUndefined();
      await afterAnswer();
      expect(heard).toEqual([{ kind: 'new-posts', count: 1 }]);
      expect(await viewCost()).toBe(1);
    });

    it('when the signature is forged, then 403 and nothing is invalidated or announced', async () => {
      const { raw } = signed(feedDelivery(BAKERY, ADDED));
      const { signature: forged } = signed(feedDelivery(BAKERY, ADDED), 'not-the-app-secret');
      await post(raw, forged).expect(403);
      // The right signature over other bytes.
      const other = signed(feedDelivery(BAKERY, { item: 'status', verb: 'add' }));
      await post(raw.replace('999', '998'), other.signature).expect(403);
      await afterAnswer();
      expect(heard).toEqual([]);
      expect(await viewCost()).toBe(0);
    });

    it.each([
      ['no signature', undefined],
      ['an empty signature', ''],
      ['the old SHA-1 form', 'sha1=0123456789abcdef0123456789abcdef01234567'],
      ['a signature that is not hex', `sha256=${'z'.repeat(64)}`],
    ])('when it comes with %s, then 403 and nothing happens', async (_what, signature) => {
      const { raw } = signed(feedDelivery(BAKERY, ADDED));
      const req = agentFor(stack).post('/webhooks/facebook').set('content-type', 'application/json');
      await (signature === undefined ? req : req.set('x-hub-signature-256', signature)).send(raw).expect(403);
      await afterAnswer();
      expect(heard).toEqual([]);
      expect(await viewCost()).toBe(0);
    });

    it('when the same delivery comes twice (a provider retry), then both get 200 and it counts once', async () => {
      const { raw, signature } = signed(feedDelivery(BAKERY, { ...ADDED, post_id: `${BAKERY}_1001` }));
      await post(raw, signature).expect(200);
      await post(raw, signature).expect(200);
      await afterAnswer();
      expect(heard).toEqual([{ kind: 'new-posts', count: 1 }]);
    });

    it('when a post is edited or removed, or a reaction comes in, then the feed is dropped and pages hear "feed changed"', async () => {
      const { raw, signature } = signed(
        feedDelivery(
          BAKERY,
          { item: 'status', verb: 'edited' },
          { item: 'reaction', verb: 'add', reaction_type: 'like' },
        ),
      );
      await post(raw, signature).expect(200);
      await afterAnswer();
      expect(heard).toEqual([{ kind: 'feed-changed' }]);
      expect(await viewCost()).toBe(1);
    });

    it('when the delivery is for a page nobody has open or cached, then 200 and it is logged with the page id, nothing else', async () => {
      const nobody = '999999999999';
      const { raw, signature } = signed(feedDelivery(nobody, ADDED));
      await post(raw, signature).expect(200);
      await afterAnswer();
      expect(heard).toEqual([]);
      const line = [...stack.logs.lines].reverse().find((l) => l.includes('"msg":"webhook delivery"'));
      expect(line).toContain(`"pageId":"${nobody}"`);
      expect(line).toContain('feed:status:add');
      expect(stack.logs.text).not.toContain('USER-TEXT-MUST-NOT-BE-LOGGED');
    });

    it('when the object is not a page, or the field is unknown, then 200 and nothing happens', async () => {
      for (const body of [
        { object: 'user', entry: [{ id: BAKERY, changes: [{ field: 'feed', value: ADDED }] }] },
        { object: 'page', entry: [{ id: BAKERY, changes: [{ field: 'mention', value: {} }] }] },
        { object: 'page', entry: [{ id: 'not-digits', changes: [{ field: 'feed', value: ADDED }] }] },
      ]) {
        const { raw, signature } = signed(body);
        await post(raw, signature).expect(200);
      }
      await afterAnswer();
      expect(heard).toEqual([]);
      expect(await viewCost()).toBe(0);
    });

    it('when a signed body is not JSON, then 200 (it was the provider) and nothing happens', async () => {
      const raw = 'not json';
      await post(raw, signed('x').signature).expect(403);
      await post(raw, signatureOf(raw)).expect(200);
      await afterAnswer();
      expect(heard).toEqual([]);
    });

    it('when the body is larger than any delivery, then 413 with a short JSON answer', async () => {
      const res = await post(Buffer.alloc(600 * 1024, 'a'), 'sha256=' + '0'.repeat(64)).expect(413);
      expect(res.body).toEqual({ error: 'body too large' });
    });
  });
});

describe('/webhooks/facebook without FB_WEBHOOK_VERIFY_TOKEN', () => {
  it('when webhooks are not configured, then the route does not exist', async () => {
    const stack = await startStack();
    try {
      await agentFor(stack)
        .get('/webhooks/facebook')
        .query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'x', 'hub.challenge': '1' })
        .expect(404);
    } finally {
      await stack.close();
    }
  });
});
