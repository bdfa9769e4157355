/**
 * How a DuckDB result column becomes Excel cells: the JS value written (numbers as numbers,
 * BIGINT included, unless a double cannot hold them; dates as real dates; booleans as booleans; everything else as text), the number
 * format, and a starting width.
 *
 * The kind of each column (percentages, dates...) follows `present/column-kind.ts`.
 *
 * Numbers: counts and measures get a thousands separator; identifiers (a column named `id` or
 * ending in `_id`) do not, because 1,042 reads as a quantity.
 *
 * Dates: exceljs writes a Date as its UTC wall time; the database keeps UTC instants, so the
 * cell shows the UTC time the CSV and Parquet files show. A DATE column is shown as a date. A
 * TIMESTAMP column is shown as a date too when every value of its first chunk (up to 2,048 rows)
 * falls at midnight UTC: such a column holds days (a due date, a day the portal sent without a
 * time), and "00:00:00" on every line is noise. The cell still holds the exact instant; only its
 * format changes, and one format serves the whole column. Excel has no date before 1900, and
 * counts a 1900-02-29 that never was: `xlsx-dates.ts` writes the dates exceljs would get wrong.
 *
 * Numbers a cell cannot hold (NaN, infinities, whole numbers past 2^53, DECIMALs with more
 * digits than a double keeps) are written as text (`xlsx-numbers.ts`).
 *
 * Text: a cell holds at most 32,767 characters in Excel, which offers to "repair" a file with a
 * longer one and drops its text. A longer value is cut to fit and ends with "…"; the workbook's
 * About sheet says how many were cut, and the CSV and Parquet files hold them whole.
 */
import {
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBUnionType,
  type DuckDBValue,
} from "@duckdb/node-api";
import { columnKind, decimalScale, isNumberKind, plainConverter } from "../present/column-kind.js";
import { PERCENT_EDGE_TEXT, type PercentEdge, percentEdge } from "../present/percent-edge.js";
import { terminalWidth } from "../terminal-columns.js";
import { neutraliseText } from "./formula-injection.js";
import { excelDate } from "./xlsx-dates.js";
import { excelNumber } from "./xlsx-numbers.js";
import { unionCell } from "./xlsx-union.js";

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
  /**
   * The style of one cell where it is not the column's: a rate that would read 100.0% or 0.0%
   * without being it (present/percent-edge.ts), a timestamp with a fraction of a second. Absent
   * for columns where no cell differs.
   */
  readonly cellStyle?: (value: CellValue) => { numFmt: string } | undefined;
}

const DAY_MS = 86_400_000;
/** Characters an Excel cell holds at most. */
export const EXCEL_CELL_CHARS = 32_767;

/** `text` cut to fit a cell, ending with "…", without splitting a surrogate pair. */
export function fitCell(text: string): string {
  if (text.length <= EXCEL_CELL_CHARS) return text;
  let end = EXCEL_CELL_CHARS - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
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

/**
 * The cell format of a kind; a DECIMAL(p,s) column shows its own `s` places up to 15, as the HTML
 * report does (decimalScale says why 15; the cell holds the value either way).
 */
function numberFormat(format: keyof typeof NUMBER_FORMATS, scale: number | undefined): string {
  if (format !== "decimal" || scale === undefined) return NUMBER_FORMATS[format];
  return scale === 0 ? NUMBER_FORMATS.integer : `#,##0.${"0".repeat(scale)}`;
}

const BASE_WIDTHS = { integer: 10, decimal: 10, percent: 10, date: 11, timestamp: 19 } as const;

/** The writer for a column named `name` of DuckDB type `type`. */
export function columnWriter(
  name: string,
  type: DuckDBType,
  options: { neutraliseFormulas: boolean; onCut: () => void },
): ColumnWriter {
  const kind = columnKind(name, type);
  const convert = plainConverter(kind, type);
  if (kind === "boolean") return { style: {}, baseWidth: 7, measure: false, convert };
  if (kind !== "text") {
    const format = kind === "integer" && IDENTIFIER.test(name) ? "identifier" : kind;
    return {
      style: { numFmt: numberFormat(format, decimalScale(type)) },
      baseWidth: BASE_WIDTHS[kind],
      // A number or date Excel cannot hold is written as text: the column is made wide enough.
      measure: true,
      convert: isNumberKind(kind) ? excelNumber(type) : excelDate(type, convert),
      ...(kind === "percent" ? { cellStyle: percentEdgeStyle } : {}),
      ...(kind === "timestamp" ? { cellStyle: subSecondStyle } : {}),
    };
  }
  const text =
    type.typeId === DuckDBTypeId.UNION
      ? unionCell(type as DuckDBUnionType, options.neutraliseFormulas)
      : options.neutraliseFormulas
        ? (v: DuckDBValue) => neutraliseText(convert(v) as string)
        : convert;
  return {
    style: {},
    baseWidth: 8,
    measure: true,
    convert: (v) => {
      const value = text(v);
      if (typeof value !== "string" || value.length <= EXCEL_CELL_CHARS) return value;
      options.onCut();
      return fitCell(value);
    },
  };
}

/**
 * Number formats for a rate at an edge: the cell keeps its value and shows ">99.9%" (or "<0.1%")
 * while it is short of 1 (above 0), and 0.0% as any other rate when edited to a value past it.
 * One object per edge, shared by every such cell (exceljs caches styles by identity).
 */
const EDGE_STYLES: Readonly<Record<PercentEdge, { numFmt: string }>> = {
  "under-full": { numFmt: `[<1]"${PERCENT_EDGE_TEXT["under-full"]}";${NUMBER_FORMATS.percent}` },
  "over-none": { numFmt: `[>0]"${PERCENT_EDGE_TEXT["over-none"]}";${NUMBER_FORMATS.percent}` },
};

function percentEdgeStyle(value: CellValue): { numFmt: string } | undefined {
  if (typeof value !== "number") return undefined;
  const edge = percentEdge(value);
  return edge === undefined ? undefined : EDGE_STYLES[edge];
}

const DATE_STYLE = { numFmt: NUMBER_FORMATS.date };

/**
 * A timestamp holding a fraction of a second shows it. Excel rounds a time to the seconds its
 * format shows, so under the column's format 2025-12-31 23:59:59.999 read 2026-01-01 00:00:00: a
 * year's last record counted in the next year, where the CSV and the HTML page show 2025. The
 * cell keeps its value; only such cells get the format with milliseconds.
 */
const SUB_SECOND_STYLE = { numFmt: `${NUMBER_FORMATS.timestamp}.000` };

function subSecondStyle(value: CellValue): { numFmt: string } | undefined {
  return value instanceof Date && value.getTime() % 1000 !== 0 ? SUB_SECOND_STYLE : undefined;
}

/**
 * Whether a timestamp cell is at midnight UTC: a Date, or an Excel serial (early 1900, see
 * xlsx-dates.ts); undefined for text.
 */
function atMidnight(value: CellValue): boolean | undefined {
  if (value instanceof Date) return value.getTime() % DAY_MS === 0;
  return typeof value === "number" ? Number.isInteger(value) : undefined;
}

/**
 * `writer`, or a writer of the same values shown as dates when it writes timestamps and every
 * date of `sample` (the first rows) is at midnight UTC (see the module comment).
 */
export function settleDateFormat(writer: ColumnWriter, sample: readonly CellValue[]): ColumnWriter {
  if (writer.style.numFmt !== NUMBER_FORMATS.timestamp) return writer;
  const midnights = sample.map(atMidnight).filter((value) => value !== undefined);
  if (midnights.length === 0 || midnights.includes(false)) return writer;
  return { ...writer, style: DATE_STYLE, baseWidth: 11 };
}

/**
 * Column width in characters: header and sampled values, within sensible bounds. Excel's width
 * unit is a digit's width, and a Chinese, Japanese or Korean character takes two, as on a
 * terminal: counted by length, a column of Japanese course titles was half as wide as they are.
 */
export function columnWidth(header: string, writer: ColumnWriter, sample: readonly CellValue[]) {
  let width = Math.max(terminalWidth(header), writer.baseWidth);
  if (writer.measure) {
    for (const value of sample) {
      if (typeof value === "string") width = Math.max(width, longestLine(value));
    }
  }
  return Math.min(width + 2, 60);
}

function longestLine(text: string): number {
  if (!text.includes("\n")) return terminalWidth(text);
  return Math.max(...text.split("\n").map(terminalWidth));
}
