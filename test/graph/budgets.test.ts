import { GraphApiError } from '../../src/graph/errors';
import { listen } from '../support/stack';
import { stubGraphClient } from '../support/graph-client';

describe('a provider that ignores the Authorization header on one path', () => {
  it('when /me/permissions answers 104 to the header, then that path switches to form-body tokens and /me/accounts keeps the header', async () => {
    const seen: string[] = [];
    const provider = await listen((req, res) => {
      const path = (req.url ?? '').split('?')[0]!;
      seen.push(`${req.method} ${path} ${req.headers.authorization ? 'header' : 'form'}`);
      res.setHeader('content-type', 'application/json');
      if (path.endsWith('/me/permissions') && req.method === 'GET') {
        res.statusCode = 400;
        res.end(
          '{"error":{"message":"An access token is required to request this resource.","type":"OAuthException","code":104}}',
        );
        return;
      }
      res.end('{"data":[]}');
    });
    const client = stubGraphClient(provider.url);
    try {
      await client.permissions('user-token-1');
      await client.permissions('user-token-2');
      await client.listPages('user-token-1');
    } finally {
      client.close();
      await provider.close();
    }
    expect(seen).toEqual([
      'GET /v26.0/me/permissions header',
      'POST /v26.0/me/permissions form',
      'POST /v26.0/me/permissions form',
      'GET /v26.0/me/accounts header',
    ]);
  });

  it('when a 104 comes back on the form path too, then it is a token error, not a loop', async () => {
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
