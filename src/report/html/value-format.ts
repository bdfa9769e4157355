/**
 * Values as a person reads them in the HTML report and the e-mail: numbers with thousands
 * separators, fractions of `_rate`/`_share`/`_pct` columns as percentages, dates as YYYY-MM-DD and
 * times as YYYY-MM-DD HH:MM (UTC, as the database keeps them).
 */
import type { ColumnKind, PlainValue } from "../present/column-kind.js";

const INTEGER = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });
const DECIMAL = new Intl.NumberFormat("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const PERCENT = new Intl.NumberFormat("en", {
  style: "percent",
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** `value` of a column of `kind` as text ("" for null). */
export function formatValue(value: PlainValue, kind: ColumnKind): string {
  if (value === null) return "";
  if (value instanceof Date) {
    const iso = value.toISOString();
    return kind === "date" ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return String(value);
    if (kind === "percent") return PERCENT.format(value);
    if (kind === "integer") return INTEGER.format(value);
    return DECIMAL.format(value);
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  return value;
}

/** Whole-number columns that are identifiers: shown without thousands separators. */
const IDENTIFIER = /(^|_)id$/;

/** The formatter of column `name` of `kind` (identifiers are plain digits). */
export function columnFormatter(name: string, kind: ColumnKind): (value: PlainValue) => string {
  if (kind === "integer" && IDENTIFIER.test(name)) {
    return (value) => (value === null ? "" : String(value));
  }
  return (value) => formatValue(value, kind);
}
