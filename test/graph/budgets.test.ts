import { GraphApiError } from '../../src/graph/errors';
import { UsageGovernor } from '../../src/graph/usage';
import { listen } from '../support/stack';
import { stubGraphClient } from '../support/graphClient';

/** The app and page budgets are apart, as the provider's "Rate Limiting" page describes (docs/provider-interface.md#usage-headers). */
describe('app-level and page-level usage holds', () => {
  const now = 1_000_000;
  const governor = () => new UsageGovernor({ slowFrom: 75, maxDelayMs: 1000, staleAfterMs: 60_000 }, () => now);

  it('when the app budget is exhausted, then user-token calls are slowed but page-token calls the page budget allows are not', () => {
    const g = governor();
    g.record({ 'x-app-usage': '{"call_count":100,"total_cputime":20,"total_time":90}' }, undefined);
    expect(g.delayFor(undefined)).toBe(1000);
    expect(g.delayFor('123')).toBe(0);
  });

  it('when a page is held back, then user-token calls (app budget) still go', () => {
    const g = governor();
    g.record(
      {
        'x-business-use-case-usage': '{"123":[{"type":"pages","call_count":100,"estimated_time_to_regain_access":5}]}',
      },
      '123',
    );
    expect(g.blockedFor('123')).toBe(300);
    expect(g.blockedFor(undefined)).toBeUndefined();
    expect(g.delayFor(undefined)).toBe(0);
  });
});

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
