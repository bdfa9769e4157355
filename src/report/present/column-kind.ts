/**
 * What kind of values a result column holds, and those values as plain JavaScript: one rule for
 * the workbook, the HTML report and the e-mail body.
 *
 * Percentages: a numeric column whose name ends in `_rate`, `_share` or `_pct` holds a fraction
 * (0.25 = 25 %). Queries follow that naming rule.
 *
 * Dates: the database keeps UTC instants; a DATE becomes the Date of its UTC midnight, a
 * TIMESTAMP its instant, so every output shows the UTC values the CSV and Parquet files show.
 */
import { type DuckDBType, DuckDBTypeId, type DuckDBValue } from "@duckdb/node-api";
import { INTEGER_TYPE_IDS, isNumericType } from "../numeric-types.js";

/** How a column's values are shown. */
export type ColumnKind =
  | "integer"
  | "decimal"
  | "percent"
  | "date"
  | "timestamp"
  | "boolean"
  | "text";

/** A value converted for display (null = empty). */
export type PlainValue = string | number | boolean | Date | null;

const DAY_MS = 86_400_000;
const PERCENT = /_(rate|share|pct)$/;

const TIMESTAMP_IDS: ReadonlySet<DuckDBTypeId> = new Set([
  DuckDBTypeId.TIMESTAMP,
  DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_MS,
  DuckDBTypeId.TIMESTAMP_NS,
  DuckDBTypeId.TIMESTAMP_TZ,
]);

/** The kind of column `name` of DuckDB type `type`. */
export function columnKind(name: string, type: DuckDBType): ColumnKind {
  const id = type.typeId;
  if (isNumericType(id)) {
    if (PERCENT.test(name)) return "percent";
    return INTEGER_TYPE_IDS.has(id) ? "integer" : "decimal";
  }
  if (id === DuckDBTypeId.BOOLEAN) return "boolean";
  if (id === DuckDBTypeId.DATE) return "date";
  if (TIMESTAMP_IDS.has(id)) return "timestamp";
  return "text";
}

/** Whether values of `kind` are numbers (right-aligned, usable as a chart's measure). */
export function isNumberKind(kind: ColumnKind): boolean {
  return kind === "integer" || kind === "decimal" || kind === "percent";
}

/** Whether values of `kind` are points in time. */
export function isTimeKind(kind: ColumnKind): boolean {
  return kind === "date" || kind === "timestamp";
}

export function toNumber(value: DuckDBValue): number | null {
  if (typeof value === "number") return value;
  // BIGINT arrives as bigint; doubles are what charts and Excel hold, so ids above 2^53 would
  // lose digits (they are shown as numbers, not computed with).
  if (typeof value === "bigint") return Number(value);
  if (value !== null && typeof value === "object" && "toDouble" in value) {
    return (value as { toDouble(): number }).toDouble();
  }
  return null;
}

function finiteDate(ms: number, value: DuckDBValue): PlainValue {
  const date = new Date(ms);
  // infinity / out-of-range timestamps have no Date: show DuckDB's text instead.
  return Number.isFinite(date.getTime()) ? date : String(value);
}

function timestampMs(id: DuckDBTypeId, value: DuckDBValue): number {
  const v = value as unknown as Record<string, bigint>;
  switch (id) {
    case DuckDBTypeId.TIMESTAMP_S:
      return Number(v.seconds) * 1000;
    case DuckDBTypeId.TIMESTAMP_MS:
      return Number(v.millis);
    case DuckDBTypeId.TIMESTAMP_NS:
      return Number((v.nanos ?? 0n) / 1_000_000n);
    default:
      return Number((v.micros ?? 0n) / 1000n);
  }
}

/** The converter of a column of `kind` and DuckDB type `type` (nulls are handled by callers). */
export function plainConverter(
  kind: ColumnKind,
  type: DuckDBType,
): (value: DuckDBValue) => PlainValue {
  switch (kind) {
    case "integer":
    case "decimal":
    case "percent":
      return toNumber;
    case "boolean":
      return (v) => v as boolean;
    case "date":
      return (v) => finiteDate((v as unknown as { days: number }).days * DAY_MS, v);
    case "timestamp":
      return (v) => finiteDate(timestampMs(type.typeId, v), v);
    default:
      return type.typeId === DuckDBTypeId.VARCHAR ? (v) => v as string : (v) => String(v);
  }
}
