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
const classes = (node: Node) => attr(node, 'class')?.split(' ') ?? [];

/**
 * Each piece of text only a screen reader hears (`.visually-hidden`, the post page's `<h1>`) that names a time:
 * whether the time is in a `<time datetime>`, the element the page's script rewrites into the reader's zone.
 */
function spokenTimes(html: string): { text: string; inTimeElement: boolean }[] {
  const found: { text: string; inTimeElement: boolean }[] = [];
  const walk = (node: Node, hidden: boolean, inTime: boolean) => {
    const nowHidden = hidden || classes(node).includes('visually-hidden') || node.nodeName === 'h1';
    const nowInTime = inTime || (node.nodeName === 'time' && attr(node, 'datetime') !== undefined);
    if (node.nodeName === '#text' && nowHidden && /\d{1,2}:\d{2}|UTC/.test(node.value ?? ''))
      found.push({ text: node.value!, inTimeElement: nowInTime });
    for (const child of node.childNodes ?? []) walk(child, nowHidden, nowInTime);
  };
  walk(parse(html), false, false);
  return found;
}

/** Screen readers hear the same time people see (docs/architecture.md#views, local time). */
describe('times only a screen reader hears', () => {
  const stack = useStack();

  it('when a Page’s feed is read, then every hidden link text names its time in a <time datetime>', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const html = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
    const times = spokenTimes(html);
    expect(times.length).toBeGreaterThan(0);
    expect(times.filter((t) => !t.inTimeElement)).toEqual([]);
  });

  it('when a post is read, then its <h1> names its time in a <time datetime>', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const html = (await agent.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200)).text;
    const times = spokenTimes(html);
    expect(times.length).toBeGreaterThan(0);
    expect(times.filter((t) => !t.inTimeElement)).toEqual([]);
  });
});
