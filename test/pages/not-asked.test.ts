import { SEED_IDS } from '@pagelight/graph-emulator';
import { connectedAgent } from '../support/flow';
import { useStack, type Stack } from '../support/stack';
import { hrefOf, jargonIn, operatorText, visibleText } from '../support/words';
import { SOURDOUGH } from '../support/posts';

const BAKERY = SEED_IDS.pages.bakery;

const calls = (stack: Stack, ending: string) => stack.emulator.controls.log.filter((e) => e.path.endsWith(ending));

/**
 * A feature whose permission is not in FB_SCOPES is not offered; its screen, reached anyway, says once that
 * whoever runs the site can turn it on, and never asks the person again for what the app does not ask for
 * (docs/operations.md#permissions).
 */
describe('a feature whose permission FB_SCOPES leaves out', () => {
  // The defaults: neither read_insights nor pages_read_user_content.
  const stack = useStack({ env: { FB_SCOPES: 'pages_show_list pages_read_engagement' } });
  afterEach(() => stack.emulator.controls.clearLog());

  it('when a Page is shown, then its card offers no Insights', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const html = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
    expect(hrefOf(html, 'Insights')).toBeUndefined();
  });

  it('when its insights are opened anyway, then the screen says the site is not set up for them, with no Ask again and no insights call', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.clearLog();
    const html = (await agent.get(`/pages/${BAKERY}/insights`).expect(200)).text;
    const text = visibleText(html);
    expect(text).toContain("This Pagelight isn't set up to show insights. Whoever runs it can turn them on.");
    expect(text).not.toMatch(/wasn't granted|Ask again/);
    expect(hrefOf(html, 'Ask again')).toBeUndefined();
    expect(jargonIn(html)).toEqual([]);
    expect(operatorText(html)).toContain('Add read_insights to FB_SCOPES');
    expect(calls(stack, '/insights')).toHaveLength(0);
  });

  it('when a post is opened, then no viewers line, and the comments say once the site is not set up for them, with no Ask again and no comments call', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.clearLog();
    const html = (await agent.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200)).text;
    const text = visibleText(html);
    expect(text).not.toMatch(/viewed this post/);
    expect(text.match(/Whoever runs it can turn them on/g)).toHaveLength(1);
    expect(text).toContain("This Pagelight isn't set up to show comments.");
    expect(hrefOf(html, 'Ask again')).toBeUndefined();
    expect(operatorText(html)).toContain('Add pages_read_user_content to FB_SCOPES');
    expect(calls(stack, '/comments')).toHaveLength(0);
    expect(calls(stack, '/insights')).toHaveLength(0);
  });
});

describe('a feature whose permission FB_SCOPES asks for and the person declined', () => {
  const stack = useStack({
    env: { FB_SCOPES: 'pages_show_list pages_read_engagement read_insights pages_read_user_content' },
  });

  it('when its insights are opened, then the card offered them, and the screen offers Ask again', async () => {
    const agent = await connectedAgent(stack, BAKERY, { decline: ['read_insights'] });
    const page = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
    expect(hrefOf(page, 'Insights')).toBe(`/pages/${BAKERY}/insights`);
    const html = (await agent.get(`/pages/${BAKERY}/insights`).expect(200)).text;
    expect(hrefOf(html, 'Ask again')).toBe(
      `/auth/login?rerequest=1&return_to=${encodeURIComponent(`/pages/${BAKERY}/insights`)}`,
    );
  });

  it('when a post with comments is opened, then the comments offer Ask again, back to the post', async () => {
    const agent = await connectedAgent(stack, BAKERY, { decline: ['pages_read_user_content'] });
    const html = (await agent.get(`/pages/${BAKERY}/posts/${SOURDOUGH}`).expect(200)).text;
    expect(hrefOf(html, 'Ask again')).toBe(
      `/auth/login?rerequest=1&return_to=${encodeURIComponent(`/pages/${BAKERY}/posts/${SOURDOUGH}`)}`,
    );
    expect(visibleText(html)).not.toContain('Whoever runs it');
  });
});
