import { SEED_IDS, TEST_SEED } from '@pagelight/graph-emulator';
import { parse } from 'parse5';
import { connectedAgent } from '../support/flow';
import { useStack } from '../support/stack';

const BAKERY = SEED_IDS.pages.bakery;
const SOURDOUGH = TEST_SEED.pages.find((p) => p.id === BAKERY)!.feed[0]!.id;

interface Node {
  nodeName: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
}

const attr = (node: Node, name: string) => node.attrs?.find((a) => a.name === name)?.value;

/** Every arrow a person meets as text, and whether it sits in an element that turns it with the text's direction. */
function arrows(html: string): { arrow: string; turns: boolean }[] {
  const found: { arrow: string; turns: boolean }[] = [];
  const walk = (node: Node, turns: boolean) => {
    if (node.nodeName === 'script' || node.nodeName === 'style') return;
    if (node.nodeName === '#text') for (const arrow of node.value?.match(/[←→]/g) ?? []) found.push({ arrow, turns });
    const here = turns || (attr(node, 'class')?.split(' ').includes('back') ?? false);
    for (const child of node.childNodes ?? []) walk(child, here);
  };
  walk(parse(html), false);
  return found;
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
