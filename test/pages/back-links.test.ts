import { SEED_IDS } from '@pagelight/graph-emulator';
import { classes, textsWithin } from '../support/dom';
import { connectedAgent } from '../support/flow';
import { useStack } from '../support/stack';
import { SOURDOUGH } from '../support/posts';

const BAKERY = SEED_IDS.pages.bakery;

/** Every arrow a person meets as text, and whether it sits in an element that turns it with the text's direction. */
function arrows(html: string): { arrow: string; turns: boolean }[] {
  return textsWithin(html, (node, turns: boolean) => turns || classes(node).includes('back'), false).flatMap(
    ({ text, within }) => (text.match(/[←→]/g) ?? []).map((arrow) => ({ arrow, turns: within })),
  );
}

/** Back links point back in either direction: their arrow turns in right to left (docs/architecture.md#languages). */
describe('back links', () => {
  const stack = useStack({ env: { FB_SCOPES: 'pages_show_list pages_read_engagement read_insights' } });

  it.each([
    ['the insights', `/pages/${BAKERY}/insights`],
    ['a post', `/pages/${BAKERY}/posts/${SOURDOUGH}`],
  ])('when %s is shown in Arabic, then its back link’s arrow is one that turns with the text', async (_, path) => {
    const agent = await connectedAgent(stack, BAKERY);
    const html = (await agent.get(path).set('Accept-Language', 'ar').expect(200)).text;
    const found = arrows(html);
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((a) => a.arrow === '←')).toEqual(found.filter((a) => a.arrow === '←' && a.turns));
  });
});
