/**
 * Serials of Excel's 1900 date system before 1900-03-01 (src/tabular/xlsx-1900-dates.ts): 1 is
 * 1900-01-01 and 59 is 1900-02-28, serial 60 is the 1900-02-29 Excel counts that never was. Each
 * workbook is written by exceljs with the raw serials in date-formatted cells, as Excel saves
 * them, and read back through the project's reader.
 */
import ExcelJS from "exceljs";
import { expect, test } from "vitest";
import { TabularError } from "../../src/tabular/types.js";
import { openXlsx } from "../../src/tabular/xlsx-reader.js";
import { craftWorkbook } from "./xlsx-workbooks.js";

/** A workbook of sheet "Dates": header `date`, then one date-formatted cell per value. */
async function datesBook(values: ExcelJS.CellValue[], date1904 = false): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  book.properties.date1904 = date1904;
  const sheet = book.addWorksheet("Dates");
  sheet.addRow(["date"]);
  for (const value of values) {
    const cell = sheet.addRow([value]).getCell(1);
    cell.numFmt = "yyyy-mm-dd";
  }
  return new Uint8Array(await book.xlsx.writeBuffer());
}

async function readDates(bytes: Uint8Array): Promise<(string | null)[]> {
  const source = await openXlsx(bytes, "dates.xlsx");
  return [...source.rows()].map((row) => row.values[0] ?? null);
}

test("serials 1 to 59 read as 1900-01-01 to 1900-02-28, from 61 on as before", async () => {
  const bytes = await datesBook([
    1,
    2,
    31,
    59,
    1.5,
    61,
    46091,
    { formula: "DATE(1900,1,2)", result: 2 } as ExcelJS.CellValue,
  ]);
  expect(await readDates(bytes)).toEqual([
    "1900-01-01",
    "1900-01-02",
    "1900-01-31",
    "1900-02-28",
    // Noon of the first day, shown by yyyy-mm-dd as its day alone.
    "1900-01-01",
    "1900-03-01",
    "2026-03-10",
    "1900-01-02",
  ]);
});

test("serial 60, the fictitious 1900-02-29, fails the file naming the cell", async () => {
  const bytes = await datesBook([1, 60.25]);
  const reading = openXlsx(bytes, "dates.xlsx");
  await expect(reading).rejects.toBeInstanceOf(TabularError);
  await expect(reading).rejects.toThrow(
    'dates.xlsx: cell A3 of sheet "Dates" is dated 1900-02-29 (Excel\'s serial 60), a day that never was: type the date meant, 1900-02-28 or 1900-03-01, and save the workbook',
  );
});

test("the 1904 date system, which has no fictitious day, reads as it did", async () => {
  const bytes = await datesBook([0, 1, 60], true);
  expect(await readDates(bytes)).toEqual(["1904-01-01", "1904-01-02", "1904-03-01"]);
});

test("ISO text date cells before 1900-03-01 are the dates they say, not serials to correct", async () => {
  const cell = (row: number, iso: string) =>
    `<row r="${row}"><c r="A${row}" s="1" t="d"><v>${iso}</v></c></row>`;
  const bytes = await craftWorkbook({
    sheets: [
      {
        name: "Dates",
        xml: `<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>date</t></is></c></row>${cell(2, "1900-01-15")}${cell(3, "1900-02-28T00:00:00")}${cell(4, "1899-12-31")}${cell(5, "1900-03-01")}</sheetData>`,
      },
    ],
    cellFormats: [0, 14],
  });
  expect(await readDates(bytes)).toEqual(["1900-01-15", "1900-02-28", "1899-12-31", "1900-03-01"]);
});
