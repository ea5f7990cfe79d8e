/**
 * A Page field the provider removed, as people see it in real Chromium (docs/provider-interface.md#removed-fields):
 * the emulator process is started with EMULATOR_REMOVED_FIELDS=hours, as the provider would refuse it on every
 * version, and the page still shows everything else.
 */
import { browsing, Stack, connectAdaToBakery } from './harness';

const BAKERY_NAME = 'Lovelace Analytical Bakery';

const stack = new Stack({ PAGE_CACHE_TTL: '0' }, { EMULATOR_REMOVED_FIELDS: 'hours' });
const browser = browsing(stack);

describe('a page whose opening hours the provider removed', () => {
  it('when the page opens, then it shows its name, description, address and posts, and no opening hours', async () => {
    const { page } = browser;
    await connectAdaToBakery(page, stack);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(BAKERY_NAME);
    const main = (await page.locator('main').textContent()) ?? '';
    expect(main).toContain('Bread computed to perfection since 1843.');
    expect(main).toContain("St James's Square");
    expect(await page.getByRole('heading', { name: 'Opening hours', includeHidden: true }).count()).toBe(0);
    expect(await page.locator('li.post').count()).toBeGreaterThan(0);
  });
});
