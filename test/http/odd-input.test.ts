import { SEED_IDS } from '@pagelight/graph-emulator';
import { graphCalls } from '../support/emulator';
import { signInAndConnect } from '../support/flow';
import { agentFor, startStack, type Stack } from '../support/stack';

const BAKERY = SEED_IDS.pages.bakery;

/** Odd input gets a clear 4xx before anything goes upstream (docs/architecture.md#request-path). */
describe('odd requests', () => {
  let stack: Stack;
  let agent: ReturnType<typeof agentFor>;
  beforeAll(async () => {
    stack = await startStack();
    agent = agentFor(stack);
    await signInAndConnect(agent, BAKERY);
  });
  afterAll(() => stack.close());

  const cases: [string, string, number][] = [
    ['a page id with letters', '/pages/abc', 400],
    ['a page id with a dot segment', '/pages/12.5', 400],
    ['a negative page id', '/pages/-1', 400],
    ['an over-long page id', `/pages/${'9'.repeat(40)}`, 400],
    ['an encoded slash in the page id', '/pages/1%2F2', 400],
    ['a script in the page id', '/pages/%3Cscript%3E', 400],
    ['the feed with no cursor', `/pages/${BAKERY}/feed`, 400],
    ['the feed with both cursors', `/pages/${BAKERY}/feed?after=a&before=b`, 400],
    ['a repeated cursor', `/pages/${BAKERY}/feed?after=a&after=b`, 400],
    ['a cursor with odd characters', `/pages/${BAKERY}/feed?after=%3Cx%3E`, 400],
    ['a huge cursor', `/pages/${BAKERY}/feed?after=${'a'.repeat(5000)}`, 400],
    ['a non-digit id on the feed', '/pages/x1/feed?after=abc', 400],
    ['a repeated rerequest', '/auth/login?rerequest=1&rerequest=1', 400],
    ['a bad rerequest value', '/auth/login?rerequest=yes', 400],
    ['a callback with a huge code', `/auth/callback?state=s&code=${'c'.repeat(3000)}`, 400],
    ['a callback with an array error', '/auth/callback?error=a&error=b', 400],
    ['a callback with a code holding spaces', '/auth/callback?state=s&code=a%20b', 400],
    ['an unknown path', '/nope', 404],
    ['an unknown method on a page', `/pages/${BAKERY}/connect`, 404],
  ];

  it.each(cases)('when %s is requested, then %i and no upstream call', async (_name, path, status) => {
    const before = graphCalls(stack);
    const res = await agent.get(path).expect(status);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(graphCalls(stack)).toBe(before);
  });

  it('when a connect POST has a non-digit id, then 400 before CSRF or upstream', async () => {
    const before = graphCalls(stack);
    await agent.post('/pages/abc/connect').type('form').send({ _csrf: 'x' }).expect(400);
    expect(graphCalls(stack)).toBe(before);
  });

  it('when a POST body is too large or has too many fields, then 413 or 400, not a crash', async () => {
    await agent
      .post('/auth/logout')
      .type('form')
      .send(`_csrf=${'a'.repeat(20_000)}`)
      .expect(413);
    const many = Array.from({ length: 50 }, (_, i) => `f${i}=1`).join('&');
    const res = await agent.post('/auth/logout').type('form').send(many);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('when the CSRF field is sent as an array, then 403', async () => {
    await agent.post('/auth/logout').type('form').send('_csrf=a&_csrf=b').expect(403);
  });

  it('when everything odd has been tried, then the session still works', async () => {
    await agent.get(`/pages/${BAKERY}`).expect(200);
  });
});
