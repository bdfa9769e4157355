/**
 * Text as an xlsx part can hold it, shown as the HTML page shows it. XML 1.0 has no place for
 * most control characters nor for U+FFFE and U+FFFF: exceljs leaves the control characters out
 * without a trace ("A\u0001B" read "AB", where the page shows "A�B"), and writes U+FFFE and
 * U+FFFF as they are, which made the sheet's XML ill-formed, so that Excel offered to repair the
 * workbook and dropped the sheet's cells. Each is written as U+FFFD, the character that says one
 * was replaced, as the page does (`html/escape.ts`); the CSV and Parquet files keep them.
 */
import { xmlSafe } from "../html/escape.js";

/** A cell's value with what XML cannot hold replaced (`xmlSafe`); anything but text as it was. */
export function xmlCell<T>(value: T): T | string {
  return typeof value === "string" ? xmlSafe(value) : value;
}
