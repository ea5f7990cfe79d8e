/**
 * The insights' charts in every language at a desktop's and a phone's width (docs/architecture.md#views): each
 * label of each axis lies inside its chart, whichever way the language is written. Arabic once drew its
 * first and last dates outside the SVG, where they were cut ("25 نوفمبر" read "بر").
 */
import { SEED_IDS } from '@pagelight/graph-emulator';
import { LANGUAGES } from '../../src/i18n/locales';
import { browsing, connectAdaToBakery, Stack } from './harness';

const BAKERY = SEED_IDS.pages.bakery;
const stack = new Stack({ FB_SCOPES: 'pages_show_list pages_read_engagement read_insights' }, {}, { seed: 'demo' });
const browser = browsing(stack);

/**
 * Each chart's labels that reach past its box, by how many pixels, as "chart 2: «25 نوفمبر» 31px left"; a
 * y axis label reaching over the grid, where the line is drawn, counts as past the plot's left edge.
 */
async function labelsOutside(): Promise<string[]> {
  return browser.page.locator('svg.chart').evaluateAll((charts) =>
    charts.flatMap((svg, n) => {
      const box = svg.getBoundingClientRect();
      const plotLeft = svg.querySelector('.grid line')!.getBoundingClientRect().left;
      return Array.from(svg.querySelectorAll('text')).flatMap((text) => {
        const r = text.getBoundingClientRect();
        const past = {
          left: box.left - r.left,
          right: r.right - (text.classList.contains('y-label') ? plotLeft : box.right),
          top: box.top - r.top,
          bottom: r.bottom - box.bottom,
        };
        // Half a pixel for rounding: a label's box is measured from its glyphs' advance.
        return Object.entries(past)
          .filter(([, by]) => by > 0.5)
          .map(([side, by]) => `chart ${n + 1}: «${text.textContent ?? ''}» ${Math.round(by)}px ${side}`);
      });
    }),
  );
}

describe.each([
  ['a desktop', { width: 1280, height: 900 }],
  ['a phone', { width: 390, height: 844 }],
])('on %s', (_, viewport) => {
  test.each(LANGUAGES.map((l) => [l.name, l.tag]))(
    'when a manager reads the insights in %s, then every label lies inside its chart',
    async (_name, tag) => {
      const { page, context } = browser;
      await page.setViewportSize(viewport);
      await connectAdaToBakery(page, stack);
      await context.addCookies([{ name: 'lang', value: tag, url: stack.appUrl }]);
      await page.goto(`${stack.appUrl}/pages/${BAKERY}/insights`);
      expect(await page.locator('html').getAttribute('lang')).toBe(tag);
      expect(await page.locator('svg.chart').count()).toBe(4);
      expect(await labelsOutside()).toEqual([]);
    },
  );
});
