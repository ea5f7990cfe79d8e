/**
 * A series of daily figures as the geometry of a line chart: the line and the area under it as SVG path
 * data, the axes' ticks with their labels, all in the chart's own units. No markup here: the partial
 * `views/partials/insight-chart.ejs` draws it, and EJS escapes every label it prints, so a label is text
 * whatever it holds. No chart library: a line, an area and two axes are a few lines of arithmetic
 * (docs/architecture.md#views).
 */

export interface ChartPoint {
  /** What the x axis says under this point ("1 Oct"). */
  label: string;
  value: number;
}

export interface ChartTick {
  /** Position along the axis, in the chart's units. */
  at: number;
  label: string;
}

export interface ChartModel {
  width: number;
  height: number;
  /** The plotting area inside the axes. */
  plot: { left: number; right: number; top: number; bottom: number };
  /** Path data of the line through the points; empty without points. */
  line: string;
  /** Path data of the area between the line and the x axis; empty with fewer than two points. */
  area: string;
  /** Points drawn as dots: the one point of a one-point series (a line needs two). */
  dots: { x: number; y: number }[];
  /** The y axis' labels, their right edge at the axis: `anchor` is that edge in the language's direction. */
  yTicks: (ChartTick & { anchor: TextAnchor })[];
  xTicks: (ChartTick & { anchor: TextAnchor })[];
  /** No points: the partial says so instead of drawing an empty frame. */
  empty: boolean;
}

/**
 * SVG's `text-anchor`: which end of a label sits at its point. "start" is the end where the language starts
 * writing, so in right-to-left text it is the right end, and a first date anchored "start" at the left axis
 * would run off the chart (Arabic's "25 نوفمبر" read "بر").
 */
export type TextAnchor = 'start' | 'middle' | 'end';
type Edge = 'left' | 'middle' | 'right';

const MARGIN = { left: 52, right: 12, top: 12, bottom: 30 };

/**
 * The chart of `points`, in a `width` × `height` box; `format` writes the y axis' numbers. Time runs left to
 * right in every language; `dir`, the language's direction, only decides how each label is anchored so that
 * it stays inside the box.
 */
export function lineChart(
  points: readonly ChartPoint[],
  format: (n: number) => string,
  dir: 'ltr' | 'rtl',
  size: { width: number; height: number } = { width: 480, height: 200 },
): ChartModel {
  const anchor = (edge: Edge): TextAnchor =>
    edge === 'middle' ? 'middle' : (edge === 'left') === (dir === 'ltr') ? 'start' : 'end';
  const plot = {
    left: MARGIN.left,
    right: size.width - MARGIN.right,
    top: MARGIN.top,
    bottom: size.height - MARGIN.bottom,
  };
  const top = niceCeiling(Math.max(0, ...points.map((p) => p.value)));
  const x = (i: number) =>
    points.length === 1
      ? (plot.left + plot.right) / 2
      : plot.left + ((plot.right - plot.left) * i) / (points.length - 1);
  // An all-zero series lies on the x axis: the scale's top is then 1, not 0 (no division by zero).
  const y = (v: number) => plot.bottom - ((plot.bottom - plot.top) * Math.max(0, v)) / (top || 1);
  const xy = points.map((p, i) => ({ x: round(x(i)), y: round(y(p.value)) }));
  const line = xy.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' ');
  const area = xy.length < 2 ? '' : `${line} L${xy[xy.length - 1]!.x} ${plot.bottom} L${xy[0]!.x} ${plot.bottom} Z`;
  return {
    width: size.width,
    height: size.height,
    plot,
    line,
    area,
    dots: xy.length === 1 ? xy : [],
    yTicks: (top === 0 ? [0] : Number.isInteger(top / 2) ? [0, top / 2, top] : [0, top]).map((v) => ({
      at: round(y(v)),
      label: format(v),
      anchor: anchor('right'),
    })),
    xTicks: xTicksOf(points, x).map(({ edge, ...tick }) => ({ ...tick, anchor: anchor(edge) })),
    empty: points.length === 0,
  };
}

/**
 * First, middle and last day: enough to read the dates, few enough never to overlap. The first label's left
 * edge sits on the first day and the last one's right edge on the last, so both stay inside the chart.
 */
function xTicksOf(points: readonly ChartPoint[], x: (i: number) => number): (ChartTick & { edge: Edge })[] {
  if (points.length === 0) return [];
  if (points.length === 1) return [{ at: round(x(0)), label: points[0]!.label, edge: 'middle' }];
  const last = points.length - 1;
  const picks: [number, Edge][] =
    points.length < 3
      ? [
          [0, 'left'],
          [last, 'right'],
        ]
      : [
          [0, 'left'],
          [Math.floor(last / 2), 'middle'],
          [last, 'right'],
        ];
  return picks.map(([i, edge]) => ({ at: round(x(i)), label: points[i]!.label, edge }));
}

/** The smallest 1, 2 or 5 × 10ⁿ at or above `max`: the y axis' top. */
export function niceCeiling(max: number): number {
  if (!(max > 0) || !Number.isFinite(max)) return 0;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((m) => m * power >= max) ?? 10;
  return step * power;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
