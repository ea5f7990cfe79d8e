import { GraphClient, type GraphClientOptions } from '../../src/graph/client';

/**
 * A Graph client pointed at a stub provider on `graphUrl` (a test's own tiny server), with the
 * settings those tests share; `overrides` changes what a test is about (a logger, the clock).
 */
export function stubGraphClient(graphUrl: string, overrides: Partial<GraphClientOptions> = {}): GraphClient {
  return new GraphClient({
    graphUrl,
    apiVersion: 'v26.0',
    appId: '1',
    appSecret: '',
    redirectUri: 'http://app.test/auth/callback',
    timeoutMs: 1000,
    now: Date.now,
    ...overrides,
  });
}
