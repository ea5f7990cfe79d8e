import { SEED_IDS } from '@pagelight/graph-emulator';
import { credentialsSeenBy, leakedLines } from '../support/log-scrape';
import { signInAndConnect, connectedAgent } from '../support/flow';
import { agentFor, APP_SECRET, startStack } from '../support/stack';

describe('the log scrape that every stack runs when it closes', () => {
  it('when a credential is written to the log, then closing the stack fails and names it only by a prefix', async () => {
    const stack = await startStack();
    await signInAndConnect(agentFor(stack), SEED_IDS.pages.bakery);
    const token = stack.emulator.controls.issuedTokens()[0]!;
    expect(leakedLines(stack.logs.lines, credentialsSeenBy(stack.emulator, APP_SECRET))).toEqual([]);
    stack.logs.write(`{"msg":"oops ${token}"}\n`);
    await expect(stack.close()).rejects.toThrow(/credentials in the app's log/);
  });

  it('when a whole flow runs at debug level, then there are log lines and none holds a credential', async () => {
    const stack = await startStack();
    const agent = await connectedAgent(stack, SEED_IDS.pages.bakery);
    await agent.get(`/pages/${SEED_IDS.pages.bakery}`).expect(200);
    expect(stack.logs.lines.length).toBeGreaterThan(5);
    expect(stack.logs.lines.some((l) => l.includes('"provider call"'))).toBe(true);
    await stack.close();
  });
});
