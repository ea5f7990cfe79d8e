/**
 * PKCE as the provider documents it, in real Chromium against the emulator's
 * default `facebook` profile (docs/provider-interface.md#pkce): the OIDC flow
 * works with a verified id_token; PKCE without `openid` ends on a plain error
 * page. The default configuration (no PKCE) is the flow of flow.e2e.test.ts.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { axeProblems, offLoopback, Stack, type Watch } from './harness';

const SCOPES = 'pages_show_list pages_read_engagement pages_read_user_content';

function scenario(title: string, appEnv: Record<string, string>, body: (stack: Stack, page: Page) => Promise<void>) {
  describe(title, () => {
    const stack = new Stack(appEnv);
    let context: BrowserContext;
    let watch: Watch;

    beforeAll(() => stack.start());
    afterAll(() => stack.stop());

    it('when a person connects, then it ends as the provider’s rules say, with no script error, CSP violation or off-loopback request', async () => {
      ({ context, watch } = await stack.context());
      const page = await context.newPage();
      await page.goto(`${stack.appUrl}/`);
      await page.getByRole('link', { name: 'Connect page' }).click();
      await page.waitForURL((u) => u.origin === stack.providerUrl && u.pathname.endsWith('/dialog/oauth'));
      await page.getByRole('radio', { name: /Ada Lovelace/ }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await body(stack, page);
      expect(await axeProblems(page)).toEqual([]);
      await context.close();
      expect(watch.cspViolations).toEqual([]);
      expect(watch.consoleErrors).toEqual([]);
      expect(offLoopback(watch.requests)).toEqual([]);
    });
  });
}

scenario(
  'FB_PKCE=on with openid (the OIDC flow)',
  { FB_PKCE: 'on', FB_SCOPES: `openid ${SCOPES}` },
  async (stack, page) => {
    await page.waitForURL(`${stack.appUrl}/pages`);
    await page.getByRole('heading', { name: /Choose a page/i }).waitFor();
  },
);

scenario('FB_PKCE=on without openid', { FB_PKCE: 'on', FB_SCOPES: SCOPES }, async (stack, page) => {
  await page.waitForURL((u) => u.origin === stack.appUrl && u.pathname === '/auth/callback');
  await page.getByRole('heading', { name: "We couldn't finish connecting" }).waitFor();
  await page.getByText('This is a problem with the site’s setup, not with your account').waitFor();
  expect(await page.content()).not.toMatch(/code_verifier|code_challenge/);
  await page.getByRole('link', { name: 'Connect again' }).waitFor();
});
