/** The text of one exceljs cell value, as a person reading the sheet would type it back. */
import type { CellValue } from "exceljs";
import type { CellNote } from "./types.js";

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/**
 * Whether a number format shows a date without its time (`yyyy-mm-dd`, `d/m/yyyy`, Excel's
 * built-in `mm-dd-yy`): it has day or year codes and no hour, second or AM/PM. Quoted text and
 * `[...]` parts (a locale, a colour) are not codes. A bare `m` may be a month or a minute, so it
 * decides nothing.
 */
export function dateOnlyFormat(numFmt: string | undefined): boolean {
  if (numFmt === undefined) return false;
  const codes = numFmt.replace(/"[^"]*"|\[[^\]]*\]|\\./g, "");
  return /[dy]/i.test(codes) && !/[hs]|am\/pm|a\/p/i.test(codes);
}

/**
 * exceljs reads dates as UTC wall time: a date alone is `YYYY-MM-DD`, else `YYYY-MM-DDTHH:MM:SS`.
 * A cell whose format shows the date alone is its date, as the sheet shows it, whatever time of
 * day it also holds (a date typed with `=NOW()`, or pasted from a system that keeps times).
 */
function dateText(date: Date, numFmt: string | undefined): string {
  const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  if (dateOnlyFormat(numFmt)) return day;
  const h = date.getUTCHours();
  const m = date.getUTCMinutes();
  const s = date.getUTCSeconds();
  return h === 0 && m === 0 && s === 0 ? day : `${day}T${pad(h)}:${pad(m)}:${pad(s)}`;
}

/**
 * Text of a cell value, null when empty. A formula gives its cached result, never the formula.
 * `numFmt` is the cell's number format (exceljs's `cell.numFmt`), which decides a date's text.
 */
export function cellText(value: CellValue, numFmt?: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value === "" ? null : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return dateText(value, numFmt);
  if ("richText" in value) return cellText(value.richText.map((part) => part.text).join(""));
  if ("hyperlink" in value) return cellText(value.text as CellValue);
  if ("formula" in value || "sharedFormula" in value) {
    return cellText((value as { result?: CellValue }).result ?? null, numFmt);
  }
  if ("error" in value) return String(value.error);
  return null;
}

/** The value a cell shows: a formula's cached result, else the value itself. */
function shownValue(value: CellValue): CellValue {
  if (
    value !== null &&
    typeof value === "object" &&
    ("formula" in value || "sharedFormula" in value)
  ) {
    return (value as { result?: CellValue }).result ?? null;
  }
  return value;
}

/** A formula cell the file saved no result for (see CellNote), else undefined. */
function uncalculatedFormula(value: CellValue): CellNote | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (!("formula" in value || "sharedFormula" in value)) return undefined;
  const { formula, result } = value as { formula?: string; result?: CellValue };
  return result === undefined ? { kind: "formula", formula } : undefined;
}

/**
 * Number formats under which a whole number shows as its plain digits (General, `0`, Text). Any
 * other may show other text (`00000` shows 123 as 00123, `#,##0` shows 1234 as 1,234).
 */
const PLAIN_FORMATS: ReadonlySet<string> = new Set(["General", "0", "@"]);

/**
 * What the text of a cell cannot say: that it is an error value (its text, `#N/A`, must never be
 * taken for a value), or a number whose text may not be what the sheet shows: formatted (exceljs
 * gives the number, not the text shown) or not a whole number (0.1+0.2 is 0.30000000000000004
 * where the sheet shows 0.3). Plain whole numbers, most cells, get no note. `numFmt` is the
 * cell's number format (exceljs's `cell.numFmt`).
 */
export function cellNote(cellValue: CellValue, numFmt: string | undefined): CellNote | undefined {
  const uncalculated = uncalculatedFormula(cellValue);
  if (uncalculated) return uncalculated;
  const value = shownValue(cellValue);
  if (typeof value === "number") {
    // exceljs gives no format for a General cell in some files and "General" in others.
    const format: string | undefined = numFmt || undefined;
    const plain =
      Number.isSafeInteger(value) && (format === undefined || PLAIN_FORMATS.has(format));
    return plain
      ? undefined
      : { kind: "number", format: format === "General" ? undefined : format };
  }
  if (value !== null && typeof value === "object" && "error" in value) return { kind: "error" };
  // Excel makes a date of "1-2" typed in a General cell: a text field must not take its ISO text.
  if (value instanceof Date) return { kind: "typed", what: "date", format: numFmt || undefined };
  if (typeof value === "boolean") return { kind: "typed", what: "boolean", format: undefined };
  return undefined;
}
