import { SEED_IDS } from '@pagelight/graph-emulator';
import { connectedAgent } from '../support/flow';
import { useStack } from '../support/stack';

const BAKERY = SEED_IDS.pages.bakery;

/** docs/architecture.md#views: a story says what happened, in the provider's words. */
describe('stories in the feed', () => {
  const stack = useStack();

  it('when a post is only a story, then it reads as the provider’s sentence, not as “activity”', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    expect(page.text).toContain(
      '<p class="story-text" dir="auto">Lovelace Analytical Bakery updated their cover photo.</p>',
    );
    expect(page.text).not.toContain('activity');
  });

  it('when a post has a story and a message, then both show: what happened, then what the Page wrote', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    expect(page.text).toMatch(
      /<p class="story-text" dir="auto">Lovelace Analytical Bakery is celebrating a milestone\.<\/p>\s*<div class="text" dir="auto">\s*<p>\S/,
    );
  });
});
