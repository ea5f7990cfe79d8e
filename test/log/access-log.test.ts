import { agentFor, type Stack, startStack, useStack } from '../support/stack';

/**
 * The access line (LOG_REQUESTS): one per request at info, with the route template rather than the URL,
 * so no query string or token reaches it; probes are not logged.
 * @see docs/operations.md#access-logs
 */
type Line = Record<string, unknown>;

/** The line is written on the response's 'close', which can come just after the client has the answer. */
async function accessLines(stack: Stack, count: number): Promise<Line[]> {
  const read = () => stack.logs.lines.map((l) => JSON.parse(l) as Line).filter((l) => l.msg === 'request');
  while (read().length < count) await new Promise((resolve) => setImmediate(resolve));
  return read();
}

describe('access lines, LOG_REQUESTS=all (the default)', () => {
  const stack = useStack({ env: { TRUST_PROXY: 'loopback' } });

  it('when pages, a page id with a query, a 404 and static files are asked for, then one info line each with the route template, status, duration, request id and client', async () => {
    const agent = agentFor(stack);
    const home = await agent.get('/').set('X-Forwarded-For', '203.0.113.9').expect(200);
    await agent.get('/pages/1234567?access_token=EAAGsecret&after=cursor123').set('X-Forwarded-For', '203.0.113.9');
    await agent.get('/no/such/thing?q=private').expect(404);
    await agent.get('/public/style.css').expect(200);
    await agent.get('/livez').expect(200);
    await agent.get('/readyz?x=1').expect(200);
    const lines = await accessLines(stack, 4);
    expect(lines.map((l) => [l.level, l.method, l.route, l.status])).toEqual([
      ['info', 'GET', '/', 200],
      ['info', 'GET', '/pages/:pageId', expect.any(Number)],
      ['info', 'GET', '(no route)', 404],
      ['info', 'GET', '/public/*', 200],
    ]);
    expect(lines[0]).toMatchObject({ requestId: home.headers['x-request-id'], client: '203.0.113.9' });
    expect(typeof lines[0]!.durationMs).toBe('number');
    const text = JSON.stringify(lines);
    for (const secret of ['EAAGsecret', 'cursor123', 'private', '?', '1234567']) expect(text).not.toContain(secret);
  });
});

describe('access lines, LOG_REQUESTS=errors and off', () => {
  it('when LOG_REQUESTS=errors, then a 2xx has no line and a 4xx has one', async () => {
    const stack = await startStack({ env: { LOG_REQUESTS: 'errors' } });
    try {
      await agentFor(stack).get('/').expect(200);
      await agentFor(stack).get('/privacy').expect(200);
      await agentFor(stack).get('/missing').expect(404);
      const lines = await accessLines(stack, 1);
      expect(lines.map((l) => [l.route, l.status])).toEqual([['(no route)', 404]]);
    } finally {
      await stack.close();
    }
  });

  it('when LOG_REQUESTS=off, then no access line at all', async () => {
    const stack = await startStack({ env: { LOG_REQUESTS: 'off' } });
    try {
      await agentFor(stack).get('/').expect(200);
      await agentFor(stack).get('/missing').expect(404);
      // The 404's own error line is written before its answer; any access line would come on 'close'.
      await new Promise((resolve) => setImmediate(resolve));
      expect(stack.logs.lines.map((l) => (JSON.parse(l) as Line).msg)).not.toContain('request');
    } finally {
      await stack.close();
    }
  });
});
