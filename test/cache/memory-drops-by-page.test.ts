import { SEED_IDS } from '@pagelight/graph-emulator';
import { signInAndConnect } from '../support/flow';
import { agentFor, useStack } from '../support/stack';
import { feedDelivery, signed } from '../webhooks/deliver';

/** The Page whose views go on. */
const VIEWED = SEED_IDS.pages.bakery;
/** The attacker's own Page: subscribed, posting in a loop; every post is a signed delivery. */
const ATTACKERS = SEED_IDS.pages.sparse;
const VERIFY_TOKEN = 'verify-token-for-tests-0001';
const VIEWS = 12;

/**
 * The memory page cache drops by page and part (docs/architecture.md#page-cache): a stream of signed webhook
 * deliveries for one Page leaves every other Page's loads storable. Before, one global counter made any
 * drop during a load keep that load out, whatever its page: each view of the other Page cost a read.
 */
describe('the memory page cache under a stream of webhook deliveries for another Page', () => {
  const stack = useStack({ env: { PAGE_CACHE_TTL: '60', FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN } });

  /** A post on the attacker's Page, as the provider delivers it; resolves once the app dropped and told about it. */
  async function postOnAttackersPage(n: number): Promise<void> {
    const heard = new Promise<void>((resolve) => {
      const stop = stack.events.subscribe(ATTACKERS, () => {
        stop();
        resolve();
      });
    });
    const { raw, signature } = signed(
      feedDelivery(ATTACKERS, { item: 'status', verb: 'add', post_id: `${ATTACKERS}_${n}` }),
    );
    await agentFor(stack)
      .post('/webhooks/facebook')
      .set('content-type', 'application/json')
      .set('x-hub-signature-256', signature)
      .send(raw)
      .expect(200);
    await heard;
  }

  it("when deliveries for one Page arrive during every view of another, then the other Page's views cost no upstream read after the first", async () => {
    const viewer = agentFor(stack);
    await signInAndConnect(viewer, VIEWED);
    const reads = () => stack.emulator.controls.calls({ path: `/${VIEWED}`, tokenKind: 'page' });
    const before = reads();
    // Each read of the viewed Page is under way long enough for a delivery to land in the middle of it.
    stack.emulator.controls.setLatency(150);
    try {
      for (let i = 0; i < VIEWS; i++) {
        const logged = stack.emulator.controls.log.length;
        let done = false;
        const view = Promise.resolve(viewer.get(`/pages/${VIEWED}`).expect(200)).finally(() => (done = true));
        // A delivery while the view's reads are under way (when it goes upstream at all).
        while (!done && !stack.emulator.controls.log.slice(logged).some((e) => e.status === null))
          await new Promise((resolve) => setImmediate(resolve));
        await postOnAttackersPage(i);
        await view;
      }
    } finally {
      stack.emulator.controls.setLatency(0);
    }
    // The first view read details and feed; every later one was served from the cache.
    expect(reads() - before).toBe(2);
  });
});
