/**
 * The domain of a chart's value scale when its values span no range. Plot maps a scale whose
 * values are all one number (every group at 0 overdue, the goal of a compliance report) or that
 * has no number at all (a column of NULLs) onto the middle of the axis: bars from zero are then
 * drawn from the top of the plot to its bottom, a line floats half-way up, and the one tick reads
 * "0.000000". Such a scale is given a domain of its own here instead.
 */

/** A scale's domain and how many ticks its axis gets. */
export interface FlatScale {
  readonly domain: readonly [number, number];
  /** Two ticks, the domain's ends: "0" and "1" (or "0%" and "100%"), not ten fractions of one. */
  readonly ticks: number;
}

const UNIT: FlatScale = { domain: [0, 1], ticks: 1 };

function range(values: Iterable<number | null>): { low: number; high: number } {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    if (value === null || !Number.isFinite(value)) continue;
    low = Math.min(low, value);
    high = Math.max(high, value);
  }
  return { low, high };
}

/**
 * For a scale drawn from zero (bars, lines): 0..1 when every value is 0 or missing, else nothing
 * (Plot's own domain, which takes in zero and every stacked total).
 */
export function zeroBasedFlatScale(values: Iterable<number | null>): FlatScale | undefined {
  const { low, high } = range(values);
  const none = low > high;
  return none || (low === 0 && high === 0) ? UNIT : undefined;
}

/**
 * For a colour scale (a heatmap's): when every value is one number, from zero to it, so it gets
 * the colour of its size rather than the ramp's middle; 0..1 when it is 0 or there is none.
 */
export function colourFlatScale(values: Iterable<number | null>): FlatScale | undefined {
  const { low, high } = range(values);
  if (low < high) return undefined;
  if (low > high || low === 0) return UNIT;
  return { domain: low > 0 ? [0, low] : [low, 0], ticks: 1 };
}
