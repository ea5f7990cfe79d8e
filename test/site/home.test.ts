import request from 'supertest';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { connectedAgent, signedInAgent } from '../support/flow';
import { useStack } from '../support/stack';
import { hrefOf } from '../support/words';
import { headingTexts } from '../support/dom';

/**
 * Home's Connect leads back to the page a person was reading when Facebook signed them out
 * (docs/architecture.md#return-to): only one of our own page paths, and a link whose author chose
 * anything else still opens home, with the plain Connect.
 */
describe('home: where Connect leads back to', () => {
  const stack = useStack();

  it('when home is given one of our page paths, then Connect carries it to the login', async () => {
    const res = await request(stack.app).get(`/?return_to=${encodeURIComponent('/pages/123/feed?after=abc')}`);
    expect(res.status).toBe(200);
    expect(hrefOf(res.text, 'Connect page')).toBe(
      `/auth/login?return_to=${encodeURIComponent('/pages/123/feed?after=abc')}`,
    );
  });

  it.each([
    ['another site', '//evil.example/pages/1'],
    ['a backslash', '/\\evil.example'],
    ['a scheme', 'https://evil.example/pages/1'],
    ['script', 'javascript:alert(1)'],
    ['a header break', '/pages/1\r\nSet-Cookie: x=1'],
    ['a path not ours', '/auth/logout'],
    ['too long', `/pages/1?x=${'a'.repeat(700)}`],
  ])('when home is given %s, then it opens with the plain Connect', async (_name, value) => {
    const res = await request(stack.app).get(`/?return_to=${encodeURIComponent(value)}`);
    expect(res.status).toBe(200);
    expect(hrefOf(res.text, 'Connect page')).toBe('/auth/login');
    expect(res.text).not.toContain('evil.example');
  });

  it('when return_to is repeated, then home opens with the plain Connect', async () => {
    const res = await request(stack.app).get('/?return_to=/pages/1&return_to=/pages/2');
    expect(res.status).toBe(200);
    expect(hrefOf(res.text, 'Connect page')).toBe('/auth/login');
  });
});

/** docs/architecture.md#views */
describe('home when signed in', () => {
  const stack = useStack();

  it('when a Page is connected, then home names it and leads to it, and offers no Connect', async () => {
    const agent = await connectedAgent(stack, SEED_IDS.pages.cafe, { user: SEED_IDS.users.grace });
    const res = await agent.get('/').expect(200);
    expect(headingTexts(res.text, 'h2')).toContain('Your connected Page');
    expect(headingTexts(res.text, 'h3')).toContain('Hopper Compiler Café');
    expect(hrefOf(res.text, 'Open Hopper Compiler Café')).toBe(`/pages/${SEED_IDS.pages.cafe}`);
    expect(hrefOf(res.text, 'Connect page')).toBeUndefined();
    expect(res.text).not.toContain('Connect a Page you manage');
  });

  it('when signed in with no Page connected yet, then home leads to the picker', async () => {
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.grace });
    const res = await agent.get('/').expect(200);
    expect(hrefOf(res.text, 'Choose a Page')).toBe('/pages');
    expect(hrefOf(res.text, 'Connect page')).toBeUndefined();
  });
});
