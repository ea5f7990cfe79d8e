import request from 'supertest';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { connectedAgent } from '../support/flow';
import { useStack } from '../support/stack';
import { classes, find } from '../support/dom';

const BAKERY = SEED_IDS.pages.bakery;

/** docs/architecture.md#views: a page whose posts were declined uses the whole width for what it says. */
describe('the declined-permission view', () => {
  const stack = useStack();

  it('when the feed’s permission was declined, then the feed section is the layout’s only part, and the stylesheet spans it across', async () => {
    const agent = await connectedAgent(stack, BAKERY, { decline: ['pages_read_engagement'] });
    const res = await agent.get(`/pages/${BAKERY}`).expect(200);
    const layout = find(res.text, { tag: 'div', class: 'layout' })!;
    const parts = (layout.childNodes ?? []).filter((child) => child.attrs);
    expect(parts.map((part) => [part.nodeName, classes(part)])).toEqual([['section', ['feed']]]);
    expect(find(layout, { class: 'feed-blocked' })).toBeDefined();
    const css = await request(stack.app).get('/public/style.css').expect(200);
    expect(css.text).toMatch(/\.layout > :only-child \{\s*grid-column: 1 \/ -1;/);
  });
});
