/**
 * How a DuckDB result column becomes Excel cells: the JS value written (numbers as numbers,
 * BIGINT included; dates as real dates; booleans as booleans; everything else as text), the number
 * format, and a starting width.
 *
 * Percentages: a numeric column whose name ends in `_rate`, `_share` or `_pct` holds a fraction
 * (0.25 = 25 %) and is formatted as a percentage. Queries follow that naming rule.
 *
 * Numbers: counts and measures get a thousands separator; identifiers (a column named `id` or
 * ending in `_id`) do not, because 1,042 reads as a quantity.
 *
 * Dates: exceljs writes a Date as its UTC wall time; the database keeps UTC instants, so the
 * cell shows the UTC time the CSV and Parquet files show. A DATE column is shown as a date. A
 * TIMESTAMP column is shown as a date too when every value of its first chunk (up to 2,048 rows)
 * falls at midnight UTC: such a column holds days (a due date, a day the portal sent without a
 * time), and "00:00:00" on every line is noise. The cell still holds the exact instant; only its
 * format changes, and one format serves the whole column.
 */
import { type DuckDBType, DuckDBTypeId, type DuckDBValue } from "@duckdb/node-api";
import { INTEGER_TYPE_IDS, isNumericType } from "../numeric-types.js";
import { neutraliseText } from "./formula-injection.js";

/** A value as exceljs writes it into a cell (null = empty cell). */
export type CellValue = string | number | boolean | Date | null;

/** How one column is written. */
export interface ColumnWriter {
  /** Style object shared by every cell of the column (exceljs caches styles by identity). */
  readonly style: { numFmt?: string };
  /** Characters a typical value takes, for the column width. */
  readonly baseWidth: number;
  /** Whether widths should follow the text of the values. */
  readonly measure: boolean;
  convert(value: DuckDBValue): CellValue;
}

const DAY_MS = 86_400_000;
const PERCENT = /_(rate|share|pct)$/;
const IDENTIFIER = /(^|_)id$/;

/** Excel number formats by kind of column. */
export const NUMBER_FORMATS = {
  identifier: "0",
  integer: "#,##0",
  decimal: "#,##0.00",
  percent: "0.0%",
  date: "yyyy-mm-dd",
  timestamp: "yyyy-mm-dd hh:mm:ss",
} as const;

function toNumber(value: DuckDBValue): number | null {
  if (typeof value === "number") return value;
  // BIGINT arrives as bigint; Excel has only doubles, so ids above 2^53 would lose digits.
  if (typeof value === "bigint") return Number(value);
  if (value !== null && typeof value === "object" && "toDouble" in value) {
    return (value as { toDouble(): number }).toDouble();
  }
  return null;
}

function finiteDate(ms: number, value: DuckDBValue): CellValue {
  const date = new Date(ms);
  // infinity / out-of-range timestamps have no Excel date: show DuckDB's text instead.
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

/** The writer for a column named `name` of DuckDB type `type`. */
export function columnWriter(
  name: string,
  type: DuckDBType,
  options: { neutraliseFormulas: boolean },
): ColumnWriter {
  const id = type.typeId;
  const percent = PERCENT.test(name);
  if (isNumericType(id)) {
    const numFmt = percent
      ? NUMBER_FORMATS.percent
      : INTEGER_TYPE_IDS.has(id)
        ? IDENTIFIER.test(name)
          ? NUMBER_FORMATS.identifier
          : NUMBER_FORMATS.integer
        : NUMBER_FORMATS.decimal;
    return { style: { numFmt }, baseWidth: 10, measure: false, convert: toNumber };
  }
  switch (id) {
    case DuckDBTypeId.BOOLEAN:
      return { style: {}, baseWidth: 7, measure: false, convert: (v) => v as boolean };
    case DuckDBTypeId.DATE:
      return {
        style: { numFmt: NUMBER_FORMATS.date },
        baseWidth: 11,
        measure: false,
        convert: (v) => finiteDate((v as unknown as { days: number }).days * DAY_MS, v),
      };
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return {
        style: { numFmt: NUMBER_FORMATS.timestamp },
        baseWidth: 19,
        measure: false,
        convert: (v) => finiteDate(timestampMs(id, v), v),
      };
    default: {
      const text =
        id === DuckDBTypeId.VARCHAR
          ? (v: DuckDBValue) => v as string
          : (v: DuckDBValue) => String(v);
      return {
        style: {},
        baseWidth: 8,
        measure: true,
        convert: options.neutraliseFormulas ? (v) => neutraliseText(text(v)) : text,
      };
    }
  }
}

const DATE_STYLE = { numFmt: NUMBER_FORMATS.date };

/**
 * `writer`, or a writer of the same values shown as dates when it writes timestamps and every
 * date of `sample` (the first rows) is at midnight UTC (see the module comment).
 */
export function settleDateFormat(writer: ColumnWriter, sample: readonly CellValue[]): ColumnWriter {
  if (writer.style.numFmt !== NUMBER_FORMATS.timestamp) return writer;
  const dates = sample.filter((value): value is Date => value instanceof Date);
  if (dates.length === 0 || dates.some((date) => date.getTime() % DAY_MS !== 0)) return writer;
  return { ...writer, style: DATE_STYLE, baseWidth: 11 };
}

/** Column width in characters: header and sampled values, within sensible bounds. */
export function columnWidth(header: string, writer: ColumnWriter, sample: readonly CellValue[]) {
  let width = Math.max(header.length, writer.baseWidth);
  if (writer.measure) {
    for (const value of sample) {
      if (typeof value === "string") width = Math.max(width, longestLine(value));
    }
  }
  return Math.min(width + 2, 60);
}

function longestLine(text: string): number {
  if (!text.includes("\n")) return text.length;
  return Math.max(...text.split("\n").map((line) => line.length));
}
