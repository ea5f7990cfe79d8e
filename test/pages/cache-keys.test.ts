import { SEED_IDS } from '@pagelight/graph-emulator';
import { graphCalls } from '../support/emulator';
import { signInAndConnect, connectedAgent } from '../support/flow';
import { agentFor, type Agent, useStack } from '../support/stack';

const BAKERY = SEED_IDS.pages.bakery;

describe('who shares an entry of the page cache', () => {
  const stack = useStack({ env: { PAGE_CACHE_TTL: '60' } });
  beforeEach(() => {
    stack.emulator.controls.reset();
    stack.cache.dropPage(BAKERY);
  });

  async function viewCalls(agent: Agent): Promise<number> {
    const before = graphCalls(stack);
    await agent.get(`/pages/${BAKERY}`).expect(200);
    return graphCalls(stack) - before;
  }

  /** A login during which the provider would not list the granted permissions: the grant is unknown ("?"). */
  async function unknownGrant(): Promise<Agent> {
    const agent = agentFor(stack);
    stack.emulator.controls.failNext(1, {
      status: 400,
      error: { code: 100, message: 'Unsupported get request.' },
      match: 'permissions',
    });
    await signInAndConnect(agent, BAKERY);
    return agent;
  }

  it('when two sessions’ granted permissions are unknown, then neither is served what the other loaded', async () => {
    const first = await unknownGrant();
    const second = await unknownGrant();
    expect(await viewCalls(first)).toBe(2);
    expect(await viewCalls(second)).toBe(2);
    expect(await viewCalls(first)).toBe(2);
  });

  it('when two sessions hold different roles on the page, then they do not share cached answers; the same role does', async () => {
    const owner = await connectedAgent(stack, BAKERY, { user: SEED_IDS.users.ada });
    const moderator = await connectedAgent(stack, BAKERY, { user: SEED_IDS.users.grace });
    expect(await viewCalls(owner)).toBe(2);
    expect(await viewCalls(moderator)).toBe(2);

    const anotherModerator = await connectedAgent(stack, BAKERY, { user: SEED_IDS.users.grace });
    expect(await viewCalls(anotherModerator)).toBe(0);
  });
});
