import { GraphApiError } from '../../src/graph/errors';
import { listen, LogCapture } from '../support/stack';
import { createLogger } from '../../src/log/logger';
import { stubGraphClient } from '../support/graph-client';

describe('a provider that ignores the Authorization header on one path', () => {
  it('when /me/permissions answers 104 to the header, then that path sends access_token in the query of a real GET, never method=, and /me/accounts keeps the header', async () => {
    const seen: string[] = [];
    const provider = await listen((req, res) => {
      const url = new URL(req.url ?? '/', 'http://provider.test');
      const via = req.headers.authorization ? 'header' : url.searchParams.has('access_token') ? 'query' : 'none';
      seen.push(`${req.method} ${url.pathname} ${via}${url.searchParams.has('method') ? ' method=' : ''}`);
      res.setHeader('content-type', 'application/json');
      if (url.pathname.endsWith('/me/permissions') && via === 'header') {
        res.statusCode = 400;
        res.end(
          '{"error":{"message":"An access token is required to request this resource.","type":"OAuthException","code":104}}',
        );
        return;
      }
      const granted = url.pathname.endsWith('/me/permissions');
      res.end(granted ? '{"data":[{"permission":"pages_show_list","status":"granted"}]}' : '{"data":[]}');
    });
    const logs = new LogCapture();
    const client = stubGraphClient(provider.url, {
      appSecret: 'app-secret-for-proof',
      logger: createLogger({ level: 'debug', destination: logs }),
    });
    let granted: string[] = [];
    try {
      granted = (await client.permissions('user-token-1-abcdef')).granted;
      await client.permissions('user-token-2-abcdef');
      await client.listPages('user-token-1-abcdef');
    } finally {
      client.close();
      await provider.close();
    }
    expect(granted).toEqual(['pages_show_list']);
    expect(seen).toEqual([
      'GET /v26.0/me/permissions header',
      'GET /v26.0/me/permissions query',
      'GET /v26.0/me/permissions query',
      'GET /v26.0/me/accounts header',
    ]);
    // The URL with the token is the transport's alone: no log line holds the token.
    expect(logs.lines.filter((l) => l.includes('user-token-'))).toEqual([]);
    expect(logs.lines.some((l) => l.includes('/v26.0/me/permissions'))).toBe(true);
  });

  it('when a 104 comes back with the token as a parameter too, then it is a token error, not a loop', async () => {
    const provider = await listen((_req, res) => {
      res.statusCode = 400;
      res.setHeader('content-type', 'application/json');
      res.end(
        '{"error":{"message":"An access token is required to request this resource.","type":"OAuthException","code":104}}',
      );
    });
    const client = stubGraphClient(provider.url);
    try {
      await expect(client.permissions('t')).rejects.toBeInstanceOf(GraphApiError);
    } finally {
      client.close();
      await provider.close();
    }
  });
});
