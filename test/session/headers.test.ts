import request from 'supertest';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { signInAndConnect } from '../support/flow';
import { startStack, type Stack, useStack } from '../support/stack';

const BAKERY = SEED_IDS.pages.bakery;

describe('answers that may show session data', () => {
  const stack = useStack();

  it('when a page shows session data, then it says Cache-Control: no-store (Back after logout shows nothing)', async () => {
    const agent = request.agent(stack.app);
    await signInAndConnect(agent, BAKERY);
    for (const path of ['/', '/pages', `/pages/${BAKERY}`, `/pages/${BAKERY}/feed?after=x`, '/no/such/page']) {
      const res = await agent.get(path);
      expect([path, res.headers['cache-control']]).toEqual([path, 'no-store']);
      // An answer no one may keep needs no validator: hashing every page for an ETag is wasted work.
      expect([path, res.headers.etag]).toEqual([path, undefined]);
    }
  });

  it('when a static file is served, then it stays cacheable', async () => {
    const res = await request(stack.app).get('/public/style.css');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).not.toBe('no-store');
    expect(res.headers.etag).toBeDefined();
  });
});

describe('X-Request-Id', () => {
  let stacks: Stack[] = [];
  afterEach(async () => {
    for (const s of stacks) await s.close();
    stacks = [];
  });

  it('when TRUST_PROXY is unset, then a client-chosen X-Request-Id is replaced', async () => {
    const stack = await startStack();
    stacks.push(stack);
    const res = await request(stack.app).get('/').set('X-Request-Id', 'chosen-by-client').expect(200);
    expect(res.headers['x-request-id']).not.toBe('chosen-by-client');
    expect(stack.logs.text).not.toContain('chosen-by-client');
  });

  it('when TRUST_PROXY is set, then the proxy’s X-Request-Id is kept', async () => {
    const stack = await startStack({ env: { TRUST_PROXY: '1' } });
    stacks.push(stack);
    const res = await request(stack.app).get('/').set('X-Request-Id', 'from-the-proxy').expect(200);
    expect(res.headers['x-request-id']).toBe('from-the-proxy');
  });
});
