import { SEED_IDS } from '@pagelight/graph-emulator';
import { createLogger } from '../../src/log/logger';
import { connectedAgent } from '../support/flow';
import { listen, LogCapture, useStack } from '../support/stack';
import { stubGraphClient } from '../support/graph-client';

const BAKERY = SEED_IDS.pages.bakery;
const NOTICE = 'talking to an emulator';

describe('the app says when it talks to an emulator (docs/provider-interface.md#emulator)', () => {
  const stack = useStack();

  it('when the provider answers with X-Graph-Emulator, then one line says so, however many calls follow', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    await agent.get(`/pages/${BAKERY}`).expect(200);
    const notices = stack.logs.lines.filter((line) => line.includes(NOTICE));
    expect(notices).toHaveLength(1);
    expect(JSON.parse(notices[0]!)).toMatchObject({
      level: 'info',
      emulator: expect.stringMatching(/^graph-emulator\//),
    });
  });
});

describe('a provider that is not an emulator', () => {
  it('when its answers carry no X-Graph-Emulator, then no such line', async () => {
    const provider = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":[]}');
    });
    const logs = new LogCapture();
    const client = stubGraphClient(provider.url, { logger: createLogger({ level: 'debug', destination: logs }) });
    try {
      await client.permissions('user-token-a');
    } finally {
      client.close();
      await provider.close();
    }
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(logs.lines.filter((line) => line.includes(NOTICE))).toEqual([]);
  });
});
