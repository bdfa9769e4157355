/**
 * `roster import` of workbook cells whose text is not what the sheet shows: a formula the file
 * saved no value of (a workbook written by a program that does not calculate), a number shown
 * through a format (`00000`, `0%`). Refused, naming the cell, its column and what to do, with the
 * roster imported before left as it was; a General number imports as the sheet shows it.
 */
import { join } from "node:path";
import ExcelJS from "exceljs";
import { describe, expect, test } from "vitest";
import { besidesMissingFields, type CliRun, cli, users, withTempDir } from "./roster-cli.js";

/** A roster of one person, Ana (id 1), then an import of `rows` under `header`. */
async function importOver(
  dir: string,
  header: string[],
  rows: ExcelJS.CellValue[][],
  format: (sheet: ExcelJS.Worksheet) => void = () => undefined,
): Promise<{ run: CliRun; before: Awaited<ReturnType<typeof users>> }> {
  const db = join(dir, "lms.duckdb");
  const first = new ExcelJS.Workbook();
  first.addWorksheet("People").addRows([header, [1, "Ana", "A-1"]]);
  await first.xlsx.writeFile(join(dir, "first.xlsx"));
  expect((await cli(["roster", "import", "first.xlsx", "--db", "lms.duckdb"], dir)).code).toBe(0);
  const before = await users(db);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("People");
  sheet.addRows([header, ...rows]);
  format(sheet);
  await book.xlsx.writeFile(join(dir, "next.xlsx"));
  const run = await cli(["roster", "import", "next.xlsx", "--db", "lms.duckdb"], dir);
  return { run, before };
}

const HEADER = ["User ID", "First Name", "Employee ID"];

describe("roster import: formulas in a workbook", () => {
  test("a formula with no saved value is refused, named by its cell, not imported as NULL", async () => {
    await withTempDir(async (dir) => {
      const { run, before } = await importOver(dir, HEADER, [
        [1, { formula: 'UPPER("ann")' }, "A-1"],
        [{ formula: "1+1" }, "Bo", "B-2"],
      ]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        'lms-export: next.xlsx, sheet "People": 2 problems, nothing was imported (the previous roster is unchanged): row 2: cell B2 (firstname) holds the formula =UPPER("ann") with no saved value (the file was written by a program that does not calculate): open the workbook in a spreadsheet and save it, or paste the values; row 3: cell A3 (user_id) holds the formula =1+1 with no saved value (the file was written by a program that does not calculate): open the workbook in a spreadsheet and save it, or paste the values. Fix the file and import it again\n',
      );
      expect(await users(join(dir, "lms.duckdb"))).toEqual(before);
    });
  });

  test("a formula with a saved value imports that value", async () => {
    await withTempDir(async (dir) => {
      const { run } = await importOver(dir, HEADER, [
        [1, { formula: 'UPPER("ann")', result: "ANN" }, "A-1"],
        [{ formula: "1+1", result: 2 }, "Bo", "B-2"],
      ]);
      expect(besidesMissingFields(run.stderr)).toBe("");
      expect(run.code).toBe(0);
      const { rows } = await users(join(dir, "lms.duckdb"));
      expect(rows.map((row) => [row.user_id, row.firstname])).toEqual([
        [1n, "ANN"],
        [2n, "Bo"],
      ]);
    });
  });
});

describe("roster import: numbers in a workbook", () => {
  test("a number a format shows otherwise is refused, named by its cell and format", async () => {
    await withTempDir(async (dir) => {
      const { run, before } = await importOver(
        dir,
        [...HEADER, "Share"],
        [
          [1, "Ana", 123, "x"],
          [2, "Bo", "B-2", 0.25],
        ],
        (sheet) => {
          sheet.getCell("C2").numFmt = "00000";
          sheet.getCell("D3").numFmt = "0%";
        },
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        'lms-export: next.xlsx, sheet "People": 2 problems, nothing was imported (the previous roster is unchanged): row 2: cell C2 (user_organisation_identifier) holds the number 123 formatted "00000", which may not be what the sheet shows: format the column as Text and type the values again; row 3: cell D3 (share) holds the number 0.25 formatted "0%", which may not be what the sheet shows: format the column as Text and type the values again. Fix the file and import it again\n',
      );
      expect(await users(join(dir, "lms.duckdb"))).toEqual(before);
    });
  });

  test("a General number imports as the sheet shows it; a formatted user_id is its number", async () => {
    await withTempDir(async (dir) => {
      const { run } = await importOver(
        dir,
        [...HEADER, "Share"],
        [
          [1, "Ana", 123, 0.1 + 0.2],
          [2, "Bo", "B-2", { formula: "0.1+0.2", result: 0.1 + 0.2 }],
          [3, "Cy", "C-3", 0.5],
        ],
        (sheet) => {
          sheet.getCell("A3").numFmt = "00000";
        },
      );
      expect(besidesMissingFields(run.stderr)).toBe("");
      expect(run.code).toBe(0);
      const { rows } = await users(join(dir, "lms.duckdb"));
      expect(rows.map((row) => [row.user_id, row.user_organisation_identifier, row.share])).toEqual(
        [
          [1n, "123", "0.3"],
          [2n, "B-2", "0.3"],
          [3n, "C-3", "0.5"],
        ],
      );
    });
  });
});
