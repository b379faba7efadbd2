/**
 * The arithmetic of the console's charts (pure, unit tested): the product's sizes, axis scales,
 * arc paths. Angles are radians clockwise from 12 o'clock, as a clock reads.
 */

/**
 * Donut radii (docs/web-pages.md "Charts"): inner 0.6; outer 0.75 under 300 px container width,
 * 0.8 under 500, 0.85 under 700, else 0.9 (fractions of the chart's half-size).
 */
export function donutRadius(containerWidth: number): { inner: number; outer: number } {
  const outer = containerWidth < 300 ? 0.75 : containerWidth < 500 ? 0.8 : containerWidth < 700 ? 0.85 : 0.9;
  return { inner: 0.6, outer };
}

/** Chart height (docs/web-pages.md "Charts"): 180 on mobile (769 px or narrower), 240 otherwise. */
export const chartHeight = (narrow: boolean) => (narrow ? 180 : 240);

/** First draws animate this long (visual-design.md: <= 300 ms); updates of the same data do not animate. */
export const ENTER_MS = 300;

/** A value axis from 0: whole-number steps of 1, 2 or 5 x 10^n, about `target` of them, covering `max`. */
export function niceScale(max: number, target = 5): { max: number; step: number; ticks: number[] } {
  const raw = Math.max(max, 1) / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude);
  const top = Math.max(step, Math.ceil(max / step) * step);
  return { max: top, step, ticks: Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step) };
}

/** The gauge's scale for a count: at least 10, else the next ten above 1.25 times the value. */
export const gaugeMax = (value: number) => Math.max(10, Math.ceil((value * 1.25) / 10) * 10);

/** Point at `radius` from the centre, `angle` clockwise from 12 o'clock. */
export function polar(cx: number, cy: number, radius: number, angle: number): [number, number] {
  return [round(cx + radius * Math.sin(angle)), round(cy - radius * Math.cos(angle))];
}

const round = (x: number) => Math.round(x * 100) / 100;

/** A ring between radii `inner` and `outer`: the whole of it (two circles, even-odd fill). */
export function ringPath(cx: number, cy: number, inner: number, outer: number): string {
  const circle = (r: number) => `M${cx} ${round(cy - r)}A${r} ${r} 0 1 1 ${cx} ${round(cy + r)}A${r} ${r} 0 1 1 ${cx} ${round(cy - r)}Z`;
  return circle(outer) + circle(inner);
}

/** A slice of a ring from angle `start` to `end` (clockwise); the whole ring when it spans a full turn. */
export function ringSlicePath(cx: number, cy: number, inner: number, outer: number, start: number, end: number): string {
  if (end - start >= 2 * Math.PI - 1e-9) return ringPath(cx, cy, inner, outer);
  const large = end - start > Math.PI ? 1 : 0;
  const [ox0, oy0] = polar(cx, cy, outer, start);
  const [ox1, oy1] = polar(cx, cy, outer, end);
  const [ix1, iy1] = polar(cx, cy, inner, end);
  const [ix0, iy0] = polar(cx, cy, inner, start);
  return `M${ox0} ${oy0}A${outer} ${outer} 0 ${large} 1 ${ox1} ${oy1}L${ix1} ${iy1}A${inner} ${inner} 0 ${large} 0 ${ix0} ${iy0}Z`;
}

/** An open arc (for a stroke) of `radius` from `start` to `end` clockwise. */
export function arcPath(cx: number, cy: number, radius: number, start: number, end: number): string {
  const [x0, y0] = polar(cx, cy, radius, start);
  const [x1, y1] = polar(cx, cy, radius, end);
  return `M${x0} ${y0}A${radius} ${radius} 0 ${end - start > Math.PI ? 1 : 0} 1 ${x1} ${y1}`;
}

/**
 * Angles of the donut's slices, clockwise from 12 o'clock in the order given. A slice that has
 * a count is at least `minAngle` wide, so one offline device among thousands still shows.
 */
export function sliceAngles(values: readonly number[], minAngle = (2 * Math.PI) / 180): { start: number; end: number }[] {
  const total = values.reduce((a, b) => a + b, 0);
  if (total <= 0) return values.map(() => ({ start: 0, end: 0 }));
  const widths = values.map((v) => (v > 0 ? Math.max(minAngle, (v / total) * 2 * Math.PI) : 0));
  // Taking the minimum from the others keeps the full turn: the excess comes out of the wide slices.
  const excess = widths.reduce((a, b) => a + b, 0) - 2 * Math.PI;
  const wide = widths.reduce((sum, w) => (w > minAngle ? sum + w : sum), 0);
  const fitted = widths.map((w) => (excess > 0 && w > minAngle ? w - (excess * w) / wide : w));
  let at = 0;
  return fitted.map((w) => {
    const slice = { start: at, end: at + w };
    at += w;
    return slice;
  });
}

/** A percentage with at most one decimal ("12.5%", "100%"). */
export const percent = (part: number, total: number) => `${total > 0 ? Math.round((part / total) * 1000) / 10 : 0}%`;

/**
 * Splits an axis label into lines of at most `maxWidth` px (estimated: `fontSize` 11 ~ 6.2 px a
 * character), breaking between words; a word longer than a line stays whole.
 */
export function wrapLabel(label: string, maxWidth: number, fontSize = 11): string[] {
  const charWidth = fontSize * 0.56;
  const lines: string[] = [];
  for (const word of label.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && (last.length + 1 + word.length) * charWidth <= maxWidth) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** Every how many categories a label fits without overlapping its neighbours (1 = all). */
export function labelInterval(count: number, plotWidth: number, labelWidth: number): number {
  if (count === 0 || plotWidth <= 0) return 1;
  return Math.max(1, Math.ceil(labelWidth / (plotWidth / count)));
}
