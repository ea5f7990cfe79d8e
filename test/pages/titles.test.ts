import { agentFor, useStack } from '../support/stack';
import { find, textOf } from '../support/dom';

/** The browser tab's title: docs/architecture.md#themes */
describe('page titles', () => {
  const stack = useStack();

  function titleOf(html: string): string | undefined {
    const title = find(html, 'title');
    return title && textOf(title);
  }

  it('when the home page is shown, then its tab names the app once, with what it is for', async () => {
    const html = (await agentFor(stack).get('/').expect(200)).text;
    expect(titleOf(html)).toBe('Pagelight — your Page, readable');
  });

  it('when another page is shown, then its tab reads "<page> · Pagelight"', async () => {
    expect(titleOf((await agentFor(stack).get('/privacy').expect(200)).text)).toBe('Privacy · Pagelight');
    const notFound = titleOf((await agentFor(stack).get('/no-such-page').expect(404)).text) ?? '';
    expect(notFound).toMatch(/^\S.* · Pagelight$/);
    expect(notFound).not.toMatch(/^Pagelight · /);
  });
});
