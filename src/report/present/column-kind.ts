/**
 * What kind of values a result column holds, and those values as plain JavaScript: one rule for
 * the workbook, the HTML report and the e-mail body.
 *
 * Percentages: a numeric column whose name ends in `_rate`, `_share` or `_pct` holds a fraction
 * (0.25 = 25 %). Queries follow that naming rule.
 *
 * Dates: the database keeps UTC instants; a DATE becomes the Date of its UTC midnight, a
 * TIMESTAMP its instant, so every output shows the UTC values the CSV and Parquet files show.
 * DuckDB's `infinity` and `-infinity` dates and timestamps become those words, as its CSV prints
 * them.
 */
import {
  DuckDBDecimalType,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValue,
} from "@duckdb/node-api";
import { INTEGER_TYPE_IDS, isNumericType } from "../numeric-types.js";
import { utcText } from "../utc-text.js";
import { ExactDecimal, exactDecimal } from "./exact-decimal.js";

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

/**
 * A value shown as text (HTML report, mail): a DECIMAL, and a whole number too large for a double,
 * keep every digit DuckDB holds.
 */
export type ShownValue = PlainValue | ExactDecimal;

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

/**
 * Places a DECIMAL is shown with at most, in the workbook, the HTML report and the mail alike. An
 * Excel cell holds a double, whose 15 significant digits leave nothing true past the 15th place
 * (Excel shows zeros there); the HTML report and the mail stop at the same place so a figure
 * reads the same in every output. The CSV and Parquet files keep every place.
 */
export const MAX_DECIMAL_PLACES = 15;

/**
 * The places after the point a DECIMAL(p,s) column is shown with: its own `s` (up to
 * MAX_DECIMAL_PLACES), so amounts read as the query typed them. Undefined for other types.
 */
export function decimalScale(type: DuckDBType): number | undefined {
  return type instanceof DuckDBDecimalType ? Math.min(type.scale, MAX_DECIMAL_PLACES) : undefined;
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
  // BIGINT arrives as bigint; doubles are what charts hold, so a value above 2^53 loses digits
  // there (the HTML report and the mail show it exact, see shownConverter; the workbook writes
  // its digits, see export/xlsx-numbers.ts).
  if (typeof value === "bigint") return Number(value);
  if (value !== null && typeof value === "object" && "toDouble" in value) {
    return (value as { toDouble(): number }).toDouble();
  }
  return null;
}

/**
 * DuckDB's infinite DATE is ±(2^31 − 1) days, its infinite timestamps ±(2^63 − 1) of their unit.
 * Read as instants they are far-off real days (5881580-07-11, or 2262-04-11 in nanoseconds), so
 * they are caught before conversion.
 */
const INFINITE_DAYS = 2_147_483_647;
const INFINITE_TICKS = 9_223_372_036_854_775_807n;

function infinityText<T extends number | bigint>(raw: T, infinite: T): string | undefined {
  if (raw === infinite) return "infinity";
  return raw === -infinite ? "-infinity" : undefined;
}

function finiteDate(ms: number, value: DuckDBValue): PlainValue {
  const date = new Date(ms);
  // Out-of-range dates and timestamps have no Date: show DuckDB's text instead.
  return Number.isFinite(date.getTime()) ? date : String(value);
}

function dateValue(value: DuckDBValue): PlainValue {
  const { days } = value as unknown as { days: number };
  return infinityText(days, INFINITE_DAYS) ?? finiteDate(days * DAY_MS, value);
}

/** A timestamp's count of its own unit (seconds to nanoseconds), and that count in milliseconds. */
function timestampTicks(id: DuckDBTypeId, value: DuckDBValue): { ticks: bigint; ms: number } {
  const v = value as unknown as Record<string, bigint>;
  switch (id) {
    case DuckDBTypeId.TIMESTAMP_S: {
      const ticks = v.seconds ?? 0n;
      return { ticks, ms: Number(ticks) * 1000 };
    }
    case DuckDBTypeId.TIMESTAMP_MS: {
      const ticks = v.millis ?? 0n;
      return { ticks, ms: Number(ticks) };
    }
    case DuckDBTypeId.TIMESTAMP_NS: {
      const ticks = v.nanos ?? 0n;
      return { ticks, ms: Number(ticks / 1_000_000n) };
    }
    default: {
      const ticks = v.micros ?? 0n;
      return { ticks, ms: Number(ticks / 1000n) };
    }
  }
}

function timestampValue(id: DuckDBTypeId, value: DuckDBValue): PlainValue {
  const { ticks, ms } = timestampTicks(id, value);
  return infinityText(ticks, INFINITE_TICKS) ?? finiteDate(ms, value);
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
      return dateValue;
    case "timestamp":
      return (v) => timestampValue(type.typeId, v);
    default:
      // A list or struct of instants shows them in UTC, as a column of instants does.
      return type.typeId === DuckDBTypeId.VARCHAR ? (v) => v as string : utcText;
  }
}

/** Beyond this, a double no longer holds every whole number: 2^53 + 1 reads as 2^53. */
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The converter of a column whose values are shown as text: as plainConverter, but a DECIMAL
 * column's values stay exact, and so does a BIGINT or HUGEINT beyond 2^53 (an id or a sum of
 * large amounts); charts take plainConverter's doubles.
 */
export function shownConverter(
  kind: ColumnKind,
  type: DuckDBType,
): (value: DuckDBValue) => ShownValue {
  if (kind === "decimal" && type instanceof DuckDBDecimalType) return exactDecimal;
  const plain = plainConverter(kind, type);
  if (kind !== "integer") return plain;
  return (value) =>
    typeof value === "bigint" && (value > SAFE || value < -SAFE)
      ? new ExactDecimal(value, 0)
      : plain(value);
}
