import { SEED_IDS } from '@pagelight/graph-emulator';
import { graphCalls } from '../support/emulator';
import { connectedAgent } from '../support/flow';
import { startStack, type Agent, type Stack } from '../support/stack';

const BAKERY = SEED_IDS.pages.bakery;
const TTL_MS = 60_000;

describe('the shared page cache and a session whose token stopped working', () => {
  let stack: Stack;
  let clock = Date.now();
  beforeAll(async () => {
    stack = await startStack({ env: { PAGE_CACHE_TTL: String(TTL_MS / 1000) }, now: () => clock });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.emulator.controls.reset());

  /** Logs a session in and returns it with the tokens the provider issued for it. */
  async function connectedSession(): Promise<{ agent: Agent; tokens: string[] }> {
    const before = new Set(stack.emulator.controls.issuedTokens());
    const agent = await connectedAgent(stack, BAKERY);
    return { agent, tokens: stack.emulator.controls.issuedTokens().filter((t) => !before.has(t)) };
  }

  async function view(agent: Agent): Promise<{ status: number; calls: number; text: string; location?: string }> {
    const before = graphCalls(stack);
    const res = await agent.get(`/pages/${BAKERY}`);
    return {
      status: res.status,
      calls: graphCalls(stack) - before,
      text: res.text,
      location: res.headers.location,
    };
  }

  it('when the provider revoked a session’s tokens while another session keeps the page warm, then it loses the page within PAGE_CACHE_TTL and one view', async () => {
    const warm = await connectedSession();
    const revoked = await connectedSession();
    expect((await view(warm.agent)).status).toBe(200);
    expect((await view(revoked.agent)).status).toBe(200);

    for (const token of revoked.tokens) stack.emulator.controls.revokeTokens({ token });
    stack.emulator.controls.setPageField(BAKERY, 'about', 'Edited after the revocation');

    // Others keep the cache warm well past the revoked session's last confirmation.
    for (let i = 0; i < 4; i++) {
      clock += TTL_MS / 2;
      expect((await view(warm.agent)).status).toBe(200);
    }
    const after = await view(revoked.agent);
    expect(after.status).toBe(303);
    expect(after.location).toBe(`/?return_to=${encodeURIComponent(`/pages/${BAKERY}`)}`);
    expect(after.calls).toBeGreaterThan(0);
    expect(after.text).not.toContain('Lovelace Analytical Bakery');
    expect(after.text).not.toContain('Edited after the revocation');
    // And it stays out.
    expect((await view(revoked.agent)).status).not.toBe(200);
  });

  it('when a session’s last upstream success is older than PAGE_CACHE_TTL, then its next view goes upstream once with its page token and refreshes the cache', async () => {
    const other = await connectedSession();
    const person = await connectedSession();
    await view(other.agent);
    expect((await view(person.agent)).calls).toBe(0);

    clock += TTL_MS + 1000;
    const stale = await view(person.agent);
    expect(stale.status).toBe(200);
    expect(stale.calls).toBe(2);
    expect(stack.emulator.controls.log.slice(-2).map((e) => e.tokenKind)).toEqual(['page', 'page']);

    expect((await view(person.agent)).calls).toBe(0);
  });

  it('when a session views a warm page again and again within PAGE_CACHE_TTL, then the session is not written back each time', async () => {
    const person = await connectedSession();
    await view(person.agent);
    const set = jest.spyOn(stack.sessions.store, 'set');
    try {
      for (let i = 0; i < 5; i++) {
        clock += 1000;
        expect((await view(person.agent)).calls).toBe(0);
      }
      expect(set).not.toHaveBeenCalled();
    } finally {
      set.mockRestore();
    }
  });
});
