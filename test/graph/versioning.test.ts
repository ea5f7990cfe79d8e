import { SEED_IDS } from '@pagelight/graph-emulator';
import { DEFAULT_API_VERSION } from '../../src/graph/provider';
import { createLogger } from '../../src/log/logger';
import { connectedAgent } from '../support/flow';
import { listen, LogCapture, useStack } from '../support/stack';
import { stubGraphClient } from '../support/graph-client';
import { hrefOf } from '../support/words';

const BAKERY = SEED_IDS.pages.bakery;

describe('every Graph call is versioned (docs/provider-interface.md#versioning)', () => {
  const stack = useStack({ env: { FB_API_VERSION: 'v24.0' } });

  it('when a person logs in, picks a page and pages back through its posts, then every provider request carries /v24.0/', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    const older = hrefOf(page.text, 'Older posts');
    await agent.get(older!).expect(200);
    const sent = stack.emulator.controls.log.filter((e) => e.kind !== 'dialog');
    expect(sent.map((e) => e.path)).toEqual(
      expect.arrayContaining(['/v24.0/me/accounts', '/v24.0/me/permissions', `/v24.0/${BAKERY}/feed`]),
    );
    expect(sent.filter((e) => !e.path.startsWith('/v24.0/'))).toEqual([]);
  });

  it('when the provider answers, then its facebook-api-version is in the debug line of the call', () => {
    expect(stack.logs.text).toMatch(/"apiVersion":"v24.0"/);
    expect(stack.logs.text).not.toMatch(/not FB_API_VERSION/);
  });

  it('when nothing is configured, then the default version is the newest the provider lists (v27.0)', () => {
    expect(DEFAULT_API_VERSION).toBe('v27.0');
  });
});

describe('an answer at another version than configured', () => {
  it('when the provider answers at v22.0 twice, then one warning names both versions', async () => {
    const provider = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'facebook-api-version': 'v22.0' });
      res.end('{"data":[]}');
    });
    const logs = new LogCapture();
    const client = stubGraphClient(provider.url, { logger: createLogger({ level: 'debug', destination: logs }) });
    try {
      await client.permissions('user-token-a');
      await client.permissions('user-token-b');
    } finally {
      client.close();
      await provider.close();
    }
    const warnings = logs.lines.filter((l) => l.includes('not FB_API_VERSION'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('v22.0');
    expect(warnings[0]).toContain('v26.0');
  });
});
