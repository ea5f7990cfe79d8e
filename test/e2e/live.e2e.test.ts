/**
 * A live page in real Chromium (docs/architecture.md#live-updates): a post added at the provider shows up as
 * "1 new post — Show" on the open page without a reload, and the button shows it.
 */
import type { Page } from 'playwright-core';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { browsing, Stack, connectAdaToBakery, shownInPlace } from './harness';

const BAKERY = SEED_IDS.pages.bakery;

// The app and the emulator share a verify token, as an operator types it in the provider's dashboard; the app asks
// for the permission to subscribe pages.
const VERIFY_TOKEN = 'e2e-webhook-verify-token';
const stack = new Stack(
  { FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN, FB_SCOPES: 'pages_show_list pages_read_engagement pages_manage_metadata' },
  { FB_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN },
);
const browser = browsing(stack);
let page: Page;
beforeEach(() => {
  ({ page } = browser);
});

describe('a live page', () => {
  it('when a post is added at the provider, then "1 new post — Show" appears within 2 s without a reload, and clicking shows it', async () => {
    await connectAdaToBakery(page, stack);
    const notice = await shownInPlace(
      page,
      () => stack.control('/activity/posts', { pageId: BAKERY, message: 'Fresh from the oven' }),
      '1 new post — Show',
      'Fresh from the oven',
      2000,
    );
    expect(await notice.isHidden()).toBe(true);
  });
});
