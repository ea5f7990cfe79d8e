import { SEED_IDS } from '@pagelight/graph-emulator';
import { connectedAgent } from '../support/flow';
import { useStack } from '../support/stack';
import { classes, find, findAll, textOf } from '../support/dom';
import { visibleText } from '../support/words';

const BAKERY = SEED_IDS.pages.bakery;

/** Each story in the page: what it says happened, and the element right after it (the Page's own words, if any). */
const stories = (html: string) =>
  findAll(html, { tag: 'p', class: 'story-text' }).map((story) => {
    const parent = find(html, (node) => (node.childNodes ?? []).includes(story))!;
    const siblings = (parent.childNodes ?? []).filter((child) => child.attrs);
    return { said: textOf(story), then: siblings[siblings.indexOf(story) + 1] };
  });

/** docs/architecture.md#views: a story says what happened, in the provider's words. */
describe('stories in the feed', () => {
  const stack = useStack();

  it('when a post is only a story, then it reads as the provider’s sentence, not as “activity”', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    expect(stories(page.text).map((story) => story.said)).toContain(
      'Lovelace Analytical Bakery updated their cover photo.',
    );
    expect(visibleText(page.text)).not.toContain('activity');
  });

  it('when a post has a story and a message, then both show: what happened, then what the Page wrote', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    const milestone = stories(page.text).find(
      (story) => story.said === 'Lovelace Analytical Bakery is celebrating a milestone.',
    );
    expect(milestone?.then).toMatchObject({ nodeName: 'div' });
    expect(classes(milestone!.then!)).toContain('text');
    expect(textOf(milestone!.then!)).not.toBe('');
  });
});
