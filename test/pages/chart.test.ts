import fs from 'node:fs';
import path from 'node:path';
import ejs from 'ejs';
import { lineChart, niceCeiling, type ChartPoint } from '../../src/pages/chart';
import { escapeOutput, VIEWS_DIR } from '../../src/http/views';
import { englishLocale } from '../../src/i18n/catalogs';
import { attr, find, findAll, images, textOf } from '../support/dom';

/** The chart partial drawn as the insights page draws it: the same escaping. */
function draw(points: ChartPoint[], summary = 'Views per day'): string {
  const file = path.join(VIEWS_DIR, 'partials', 'insight-chart.ejs');
  const template = ejs.compile(fs.readFileSync(file, 'utf8'), {
    filename: file,
    root: VIEWS_DIR,
    escape: escapeOutput,
  });
  return template({
    chart: lineChart(points, (n: number) => englishLocale().number(n), 'ltr'),
    summary,
    t: englishLocale().t,
  });
}

const days = (values: number[]): ChartPoint[] => values.map((value, i) => ({ label: `${i + 1} Oct`, value }));

/** docs/architecture.md#views: the insights' charts, drawn on the server. */
describe('lineChart and its partial', () => {
  const SCRIPT = '<script>alert(1)</script>';
  it('when labels and the summary hold markup, then the drawn SVG holds them as text only', () => {
    const svg = draw(
      [
        { label: SCRIPT, value: 3 },
        { label: '"><img src=x onerror=alert(1)>', value: 5 },
      ],
      'Views" onload="alert(1)',
    );
    expect(findAll(svg, 'script')).toEqual([]);
    expect(images(svg)).toEqual([]);
    expect(textOf(svg)).toContain(SCRIPT);
    const drawn = find(svg, 'svg')!;
    expect(attr(drawn, 'aria-label')).toBe('Views" onload="alert(1)');
    expect(attr(drawn, 'onload')).toBeUndefined();
  });

  it('when the series is empty, then no path is drawn and the partial says there are no figures', () => {
    const chart = lineChart([], (n: number) => englishLocale().number(n), 'ltr');
    expect(chart).toMatchObject({ empty: true, line: '', area: '', dots: [], xTicks: [] });
    const html = draw([]);
    expect(textOf(html)).toContain('No figures for these days.');
    expect(find(html, 'svg')).toBeUndefined();
  });

  it('when every value is zero, then the line lies on the x axis and the only y label is 0', () => {
    const chart = lineChart(days([0, 0, 0, 0]), (n: number) => englishLocale().number(n), 'ltr');
    const ys = [...chart.line.matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((m) => Number(m[1]));
    expect(ys).toEqual([chart.plot.bottom, chart.plot.bottom, chart.plot.bottom, chart.plot.bottom]);
    expect(chart.yTicks).toEqual([{ at: chart.plot.bottom, label: '0', anchor: 'end' }]);
    expect(chart.line).not.toMatch(/NaN|Infinity/);
  });

  it('when there is one point, then it is a dot in the middle with its label, and no line to draw an area from', () => {
    const chart = lineChart([{ label: '1 Oct', value: 7 }], (n: number) => englishLocale().number(n), 'ltr');
    const middle = (chart.plot.left + chart.plot.right) / 2;
    // 7 on an axis up to 10: seven tenths of the way up.
    const [dot] = chart.dots;
    expect(chart.dots).toHaveLength(1);
    expect(dot!.x).toBe(middle);
    expect(dot!.y).toBeCloseTo(chart.plot.bottom - (chart.plot.bottom - chart.plot.top) * 0.7, 1);
    expect(chart.area).toBe('');
    expect(chart.xTicks).toEqual([{ at: middle, label: '1 Oct', anchor: 'middle' }]);
    expect(findAll(draw([{ label: '1 Oct', value: 7 }]), { tag: 'circle', class: 'dot' })).toHaveLength(1);
  });

  it('when a month is drawn, then the line spans the plot, the y axis tops at a round number and three days are labelled', () => {
    const chart = lineChart(days([120, 340, 90, 1180, 400]), (n: number) => englishLocale().number(n), 'ltr');
    expect(chart.line.startsWith(`M${chart.plot.left} `)).toBe(true);
    expect(chart.line).toContain(`L${chart.plot.right} `);
    expect(chart.yTicks.map((t) => t.label)).toEqual(['0', '1,000', '2,000']);
    expect(chart.xTicks.map((t) => t.label)).toEqual(['1 Oct', '3 Oct', '5 Oct']);
    expect(chart.area.endsWith('Z')).toBe(true);
  });

  it.each([
    ['ltr', ['start', 'middle', 'end'], 'end'],
    ['rtl', ['end', 'middle', 'start'], 'start'],
  ] as const)(
    'when the language is written %s, then the first date starts at the left axis, the last ends at the right, and the y labels end at the axis',
    (dir, xAnchors, yAnchor) => {
      const chart = lineChart(days([3, 5, 8, 2, 4]), (n: number) => englishLocale().number(n), dir);
      expect(chart.xTicks.map((t) => t.anchor)).toEqual(xAnchors);
      expect(new Set(chart.yTicks.map((t) => t.anchor))).toEqual(new Set([yAnchor]));
    },
  );

  it.each([
    [0, 0],
    [1, 1],
    [3, 5],
    [7, 10],
    [11, 20],
    [1180, 2000],
    [48_000, 50_000],
  ])('when the largest value is %d, then the axis tops at %d', (max, top) => {
    expect(niceCeiling(max)).toBe(top);
  });
});
