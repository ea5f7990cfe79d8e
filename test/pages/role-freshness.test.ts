import { SEED_IDS } from '@pagelight/graph-emulator';
import { signInAndConnect } from '../support/flow';
import { agentFor, useStack } from '../support/stack';

const BAKERY = SEED_IDS.pages.bakery;
const TTL_MS = 60_000;
/** Grace's role on the bakery in the seed: narrower than Ada's full control. */
const NARROW = ['ANALYZE', 'CREATE_CONTENT', 'MODERATE'];

/**
 * The person's role on a Page is part of what the page cache shares by; the provider can change it at any
 * time, so it is read again at the cache's freshness (docs/architecture.md#page-cache).
 */
describe('a person whose role on the Page changed', () => {
  let clock = Date.now();
  // No accounts cache: each read of the role is a call the test can script.
  const stack = useStack({
    env: { PAGE_CACHE_TTL: String(TTL_MS / 1000), ACCOUNTS_CACHE_TTL: '0' },
    now: () => clock,
  });
  beforeEach(() => stack.emulator.controls.reset());

  const pageReads = () => stack.emulator.controls.calls({ path: `/${BAKERY}`, tokenKind: 'page' });
  /** `/me/accounts` as the provider answers it once the person's role on the bakery is `tasks` (or gone). */
  const accountsOnce = (tasks: string[] | undefined) =>
    stack.emulator.controls.failNext(1, {
      kind: 'http',
      status: 200,
      contentType: 'application/json',
      match: '/me/accounts',
      body: JSON.stringify({
        data: tasks ? [{ id: BAKERY, name: 'Lovelace Analytical Bakery', category: 'Bakery', tasks }] : [],
      }),
    });
  /** Ada connects the bakery and views it; then PAGE_CACHE_TTL passes. */
  const adaViewedATtlAgo = async () => {
    const ada = agentFor(stack);
    await signInAndConnect(ada, BAKERY);
    await ada.get(`/pages/${BAKERY}`).expect(200);
    clock += TTL_MS + 1000;
    return ada;
  };

  it('when the role narrowed after the session learned it, then once its confirmation is older than PAGE_CACHE_TTL the view is cached for the new role, and shared with others holding it', async () => {
    const ada = await adaViewedATtlAgo();
    accountsOnce(NARROW);
    const readsBefore = pageReads();
    await ada.get(`/pages/${BAKERY}`).expect(200);
    expect(pageReads() - readsBefore).toBe(2);
    expect(stack.emulator.controls.pendingFailures()).toEqual([]);

    // Grace holds that role: her first view is served from what Ada's view stored for it.
    const grace = agentFor(stack);
    await signInAndConnect(grace, BAKERY, { user: SEED_IDS.users.grace });
    const graceBefore = pageReads();
    await grace.get(`/pages/${BAKERY}`).expect(200);
    expect(pageReads() - graceBefore).toBe(0);
  });

  it('when the person no longer manages the Page, then past PAGE_CACHE_TTL nothing cached is served to them: every view asks the provider with their own token', async () => {
    const ada = await adaViewedATtlAgo();
    for (let i = 0; i < 2; i++) {
      accountsOnce(undefined);
      const before = pageReads();
      await ada.get(`/pages/${BAKERY}`);
      expect(pageReads() - before).toBe(2);
    }
  });

  it('when the role is unchanged, then it is read again once per PAGE_CACHE_TTL, not on every view', async () => {
    const ada = await adaViewedATtlAgo();
    await ada.get(`/pages/${BAKERY}`).expect(200);
    const before = stack.emulator.controls.calls({ path: '/me/accounts' });
    for (let i = 0; i < 3; i++) await ada.get(`/pages/${BAKERY}`).expect(200);
    expect(stack.emulator.controls.calls({ path: '/me/accounts' })).toBe(before);
  });
});
