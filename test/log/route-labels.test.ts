import fc from 'fast-check';
import request from 'supertest';
import { type Stack, useStack } from '../support/stack';

/**
 * Metrics, access lines and traces name a request by the route as the app declares it, whatever the request's
 * spelling: the number of series is bounded by the app's routes, not by what clients send.
 * @see docs/operations.md#metrics
 */
type Line = Record<string, unknown>;

/** The route each request's access line named, in order, once `count` lines are written. */
async function routesLogged(stack: Stack, count: number): Promise<unknown[]> {
  const read = () => stack.logs.lines.map((l) => JSON.parse(l) as Line).filter((l) => l.msg === 'request');
  while (read().length < count) await new Promise((resolve) => setImmediate(resolve));
  return read().map((l) => l.route);
}

describe('route labels', () => {
  const stack = useStack();
  beforeEach(() => stack.logs.lines.splice(0));

  it('when a page is asked for as /PaGeS/…, then its line names /pages/:pageId', async () => {
    await request(stack.app).get('/PaGeS/1234567').expect(401);
    expect(await routesLogged(stack, 1)).toEqual(['/pages/:pageId']);
  });

  it('when the picker is asked for, with or without its slash, then its line names /pages', async () => {
    await request(stack.app).get('/pages');
    await request(stack.app).get('/pages/');
    expect(await routesLogged(stack, 2)).toEqual(['/pages', '/pages']);
  });

  it('when the session store is down, then the 503s are named by the route they were for', async () => {
    const down = jest.spyOn(stack.sessions, 'healthy').mockReturnValue(false);
    try {
      await request(stack.app).get('/pages/1234567').expect(503);
      await request(stack.app).get('/AUTH/login').expect(503);
      await request(stack.app).get('/no/such/page').expect(503);
      expect(await routesLogged(stack, 3)).toEqual(['/pages/:pageId', '/auth/login', '(no route)']);
    } finally {
      down.mockRestore();
    }
  });

  it('when paths of the app are asked for in any letter case, then every line names a declared route', async () => {
    const declared = ['/', '/privacy', '/language', '/auth/login', '/auth/callback', '/pages', '/pages/:pageId'];
    const paths = ['/', '/privacy', '/language', '/auth/login', '/auth/callback', '/pages', '/pages/', '/pages/123'];
    const spelling = fc
      .tuple(fc.constantFrom(...paths), fc.infiniteStream(fc.boolean()))
      .map(([path, upper]) => [...path].map((c) => (upper.next().value ? c.toUpperCase() : c)).join(''));
    const spellings = fc.sample(spelling, { numRuns: 60, seed: 31 });
    for (const path of spellings) await request(stack.app).get(path);
    const routes = await routesLogged(stack, spellings.length);
    expect(routes.filter((r) => r !== '(no route)' && !declared.includes(String(r)))).toEqual([]);
  });
});
