import { SEED_IDS } from '@pagelight/graph-emulator';
import { attr, classes, textsWithin } from '../support/dom';
import { connectedAgent } from '../support/flow';
import { useStack } from '../support/stack';
import { SOURDOUGH } from '../support/posts';

const BAKERY = SEED_IDS.pages.bakery;

/**
 * Each piece of text only a screen reader hears (`.visually-hidden`, the post page's `<h1>`) that names a time:
 * whether the time is in a `<time datetime>`, the element the page's script rewrites into the reader's zone.
 */
function spokenTimes(html: string): { text: string; inTimeElement: boolean }[] {
  return textsWithin(
    html,
    (node, { hidden, inTime }) => ({
      hidden: hidden || classes(node).includes('visually-hidden') || node.nodeName === 'h1',
      inTime: inTime || (node.nodeName === 'time' && attr(node, 'datetime') !== undefined),
    }),
    { hidden: false, inTime: false },
  )
    .filter(({ text, within }) => within.hidden && /\d{1,2}:\d{2}|UTC/.test(text))
    .map(({ text, within }) => ({ text, inTimeElement: within.inTime }));
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
