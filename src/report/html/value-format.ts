/**
 * Values as a person reads them in the HTML report and the e-mail: numbers with thousands
 * separators (a DECIMAL with its own places and every digit the database holds, other fractions
 * with two), fractions of
 * `_rate`/`_share`/`_pct` columns as percentages (never 100.0% or 0.0% short of it), dates as YYYY-MM-DD and times as
 * YYYY-MM-DD HH:MM (UTC, as the database keeps them).
 */
import { type ColumnKind, MAX_DECIMAL_PLACES, type ShownValue } from "../present/column-kind.js";
import { ExactDecimal } from "../present/exact-decimal.js";
import { nonFiniteText } from "../present/non-finite-text.js";
import { PERCENT_EDGE_TEXT, PERCENT_ONE_PLACE, percentEdge } from "../present/percent-edge.js";

/**
 * A minus only where the value shown is not zero: -0.001 at two places reads 0.00, not -0.00, a
 * sign that says nothing and makes a reader look for a loss.
 */
const SIGN = { signDisplay: "negative" } as const;
const INTEGER = new Intl.NumberFormat("en", { maximumFractionDigits: 0, ...SIGN });
/** Places of a fractional number whose type does not say (DOUBLE, FLOAT). */
const DEFAULT_PLACES = 2;

/** One formatter per number of places, made when first asked for (up to MAX_DECIMAL_PLACES). */
const byPlaces = new Map<number, Intl.NumberFormat>();

function fixedPlaces(places: number): Intl.NumberFormat {
  let format = byPlaces.get(places);
  if (format === undefined) {
    format = new Intl.NumberFormat("en", {
      minimumFractionDigits: places,
      maximumFractionDigits: places,
      ...SIGN,
    });
    byPlaces.set(places, format);
  }
  return format;
}

/**
 * `value` of a column of `kind` as text ("" for null); `scale` is a DECIMAL column's places
 * (decimalScale), shown instead of the default two.
 */
export function formatValue(value: ShownValue, kind: ColumnKind, scale?: number): string {
  if (value === null) return "";
  if (value instanceof ExactDecimal) {
    return fixedPlaces(scale ?? Math.min(value.scale, MAX_DECIMAL_PLACES)).format(value.literal);
  }
  if (value instanceof Date) {
    const iso = value.toISOString();
    return kind === "date" ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return nonFiniteText(value);
    if (kind === "percent") return percentText(value);
    if (kind === "integer") return INTEGER.format(value);
    return fixedPlaces(scale ?? DEFAULT_PLACES).format(value);
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  return value;
}

/** A rate with one decimal, never 100.0% or 0.0% unless it is exactly that (percent-edge.ts). */
function percentText(value: number): string {
  const edge = percentEdge(value);
  return edge === undefined ? PERCENT_ONE_PLACE.format(value) : PERCENT_EDGE_TEXT[edge];
}

/** Whole-number columns that are identifiers: shown without thousands separators. */
const IDENTIFIER = /(^|_)id$/;

/** The formatter of column `name` of `kind` (identifiers are plain digits; `scale` as above). */
export function columnFormatter(
  name: string,
  kind: ColumnKind,
  scale?: number,
): (value: ShownValue) => string {
  if (kind === "integer" && IDENTIFIER.test(name)) {
    return (value) => (value === null ? "" : String(value));
  }
  return (value) => formatValue(value, kind, scale);
}
