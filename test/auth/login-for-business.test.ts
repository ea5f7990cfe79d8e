import { DEFAULT_CONFIGURATIONS, SEED_IDS } from '@pagelight/graph-emulator';
import { startLogin, connectedAgent } from '../support/flow';
import { agentFor, useStack } from '../support/stack';
import { ConfigError, loadConfig } from '../../src/config';

const CONFIG_ID = DEFAULT_CONFIGURATIONS[0]!.id;

describe('Facebook Login for Business (FB_CONFIG_ID)', () => {
  const stack = useStack({ env: { FB_CONFIG_ID: CONFIG_ID } });

  it('when FB_CONFIG_ID is set, then the dialog gets config_id and no scope, and response_type=code stays', async () => {
    const q = new URL(await startLogin(agentFor(stack))).searchParams;
    expect(q.get('config_id')).toBe(CONFIG_ID);
    expect(q.has('scope')).toBe(false);
    expect(q.get('response_type')).toBe('code');
  });

  it('when the person approves the configuration, then the whole flow reaches the page', async () => {
    const agent = await connectedAgent(stack, SEED_IDS.pages.bakery);
    await agent.get(`/pages/${SEED_IDS.pages.bakery}`).expect(200);
  });

  it('when FB_CONFIG_ID is not a number, then one line names the variable', () => {
    expect(() => loadConfig({ FB_CONFIG_ID: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ FB_CONFIG_ID: 'abc' })).toThrow(/^FB_CONFIG_ID: /);
  });
});
