/**
 * A rate shown to one decimal reads "100.0%" from 0.9995 up and "0.0%" below 0.0005: a compliance
 * officer reading 100.0% takes it that nothing is open, and a 0.0% overdue rate that no one is
 * overdue. A value strictly between 0 and 1 that rounds to either end is therefore shown as
 * ">99.9%" or "<0.1%", in the HTML report, the e-mail and the workbook alike (the workbook cell
 * keeps the value; only its number format says so).
 */

/** A fraction as a percentage with one decimal, the way every report shows rates. */
export const PERCENT_ONE_PLACE = new Intl.NumberFormat("en", {
  style: "percent",
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
  // A minus only where the value shown is not zero (see value-format.ts).
  signDisplay: "negative",
});

const FULL = PERCENT_ONE_PLACE.format(1);
const NONE = PERCENT_ONE_PLACE.format(0);

/** Which end a value rounds to without being there. */
export type PercentEdge = "under-full" | "over-none";

/** The text shown for a value at each edge. */
export const PERCENT_EDGE_TEXT: Readonly<Record<PercentEdge, string>> = {
  "under-full": ">99.9%",
  "over-none": "<0.1%",
};

/**
 * The edge `value` would wrongly read as, or undefined. Decided by the formatted text itself, so
 * the rule and the rounding cannot disagree at the boundary.
 */
export function percentEdge(value: number): PercentEdge | undefined {
  // Most rates are far from both ends: skip formatting them.
  if (!(value > 0 && value < 1) || (value > 0.001 && value < 0.999)) return undefined;
  const text = PERCENT_ONE_PLACE.format(value);
  if (text === FULL) return "under-full";
  if (text === NONE) return "over-none";
  return undefined;
}
