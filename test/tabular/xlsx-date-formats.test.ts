/**
 * A date cell reads as the sheet shows it: under a format with no time (`yyyy-mm-dd`, Excel's
 * built-in short date), its day, whatever time of day it also holds; under a format with a time,
 * the day and the time. Written with exceljs, read back by the project's XLSX reader.
 */
import ExcelJS from "exceljs";
import { expect, test } from "vitest";
import { dateOnlyFormat } from "../../src/tabular/xlsx-cell-text.js";
import { openXlsx } from "../../src/tabular/xlsx-reader.js";

test("a date shown without its time is read as its day; one shown with it, with the time", async () => {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("People");
  sheet.addRow(["user_id", "start", "built_in", "stamped", "midnight"]);
  const afternoon = new Date(Date.UTC(2023, 11, 31, 13, 30, 0));
  sheet.addRow([1, afternoon, afternoon, afternoon, new Date(Date.UTC(2024, 2, 1))]);
  sheet.getCell("B2").numFmt = "yyyy-mm-dd";
  sheet.getCell("C2").numFmt = "mm-dd-yy";
  sheet.getCell("D2").numFmt = "yyyy-mm-dd hh:mm";
  sheet.getCell("E2").numFmt = "dd/mm/yyyy";
  const bytes = new Uint8Array(await book.xlsx.writeBuffer());
  const source = await openXlsx(bytes, "people.xlsx");
  const rows = [...source.rows()].map((row) => row.values);
  expect(rows).toEqual([["1", "2023-12-31", "2023-12-31", "2023-12-31T13:30:00", "2024-03-01"]]);
});

test("which formats show a date without a time", () => {
  for (const format of ["yyyy-mm-dd", "mm-dd-yy", "d/m/yyyy", "[$-409]d-mmm-yy;@", 'dd" de "mmmm'])
    expect(dateOnlyFormat(format), format).toBe(true);
  for (const format of ["yyyy-mm-dd hh:mm", "h:mm AM/PM", "mm:ss", "General", "0", "@", "[h]:mm"])
    expect(dateOnlyFormat(format), format).toBe(false);
  expect(dateOnlyFormat(undefined)).toBe(false);
});
