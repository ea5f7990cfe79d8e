import { SEED_IDS } from '@pagelight/graph-emulator';
import { signInAndConnect, connectedAgent } from '../support/flow';
import { agentFor, startStack, type Stack } from '../support/stack';
import { dataOf } from '../support/dom';

const BAKERY = SEED_IDS.pages.bakery;
const SCOPES = 'pages_show_list pages_read_engagement pages_read_user_content';

const subscribeCalls = (stack: Stack) => stack.emulator.controls.calls({ path: 'subscribed_apps' });

/** docs/architecture.md#live-updates */
describe('subscribing a connected page to webhooks', () => {
  let stack: Stack;
  afterEach(() => stack.close());

  it('when pages_manage_metadata was granted, then connecting the page asks the provider to subscribe it, and the page is live', async () => {
    stack = await startStack({
      env: { FB_WEBHOOK_VERIFY_TOKEN: 'verify-token-for-tests-0001', FB_SCOPES: `${SCOPES} pages_manage_metadata` },
    });
    const agent = await connectedAgent(stack, BAKERY);
    expect(subscribeCalls(stack)).toBeGreaterThanOrEqual(1);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    // The provider said {success:true}: the page is live.
    expect(dataOf(page.text, 'events')).toMatch(/^\/pages\/\d+\/events\?since=\d+$/);
    expect(page.text).not.toContain('New posts appear when you reload this page.');
    expect(stack.logs.text).not.toMatch(/EAA|access_token=/);
  });

  it('when pages_manage_metadata was declined, then nothing is subscribed and the page says updates appear on reload', async () => {
    stack = await startStack({
      env: { FB_WEBHOOK_VERIFY_TOKEN: 'verify-token-for-tests-0001', FB_SCOPES: `${SCOPES} pages_manage_metadata` },
    });
    const agent = await connectedAgent(stack, BAKERY, { decline: ['pages_manage_metadata'] });
    expect(subscribeCalls(stack)).toBe(0);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    expect(page.text).toContain('New posts appear when you reload this page.');
    expect(page.text).not.toContain('data-events');
  });

  it('when webhooks are not configured, then nothing is subscribed even with the permission', async () => {
    stack = await startStack({ env: { FB_SCOPES: `${SCOPES} pages_manage_metadata` } });
    await signInAndConnect(agentFor(stack), BAKERY);
    expect(subscribeCalls(stack)).toBe(0);
  });
});
