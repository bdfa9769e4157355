/**
 * `roster import` of workbook cells whose text is not what the sheet shows: a formula the file
 * saved no value of (a workbook written by a program that does not calculate). Refused, naming
 * the cell, its column and what to do, with the roster imported before left as it was.
 */
import { join } from "node:path";
import ExcelJS from "exceljs";
import { describe, expect, test } from "vitest";
import { type CliRun, cli, users, withTempDir } from "./roster-cli.js";

/** A roster of one person, Ana (id 1), then an import of `rows` under `header`. */
async function importOver(
  dir: string,
  header: string[],
  rows: ExcelJS.CellValue[][],
): Promise<{ run: CliRun; before: Awaited<ReturnType<typeof users>> }> {
  const db = join(dir, "lms.duckdb");
  const first = new ExcelJS.Workbook();
  first.addWorksheet("People").addRows([header, [1, "Ana", "A-1"]]);
  await first.xlsx.writeFile(join(dir, "first.xlsx"));
  expect((await cli(["roster", "import", "first.xlsx", "--db", "lms.duckdb"], dir)).code).toBe(0);
  const before = await users(db);
  const book = new ExcelJS.Workbook();
  book.addWorksheet("People").addRows([header, ...rows]);
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
        'lms-export: next.xlsx: 2 problems, nothing was imported (the previous roster is unchanged): row 2: cell B2 (firstname) holds the formula =UPPER("ann") with no saved value (the file was written by a program that does not calculate): open the workbook in a spreadsheet and save it, or paste the values; row 3: cell A3 (user_id) holds the formula =1+1 with no saved value (the file was written by a program that does not calculate): open the workbook in a spreadsheet and save it, or paste the values. Fix the file and import it again\n',
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
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const { rows } = await users(join(dir, "lms.duckdb"));
      expect(rows.map((row) => [row.user_id, row.firstname])).toEqual([
        [1n, "ANN"],
        [2n, "Bo"],
      ]);
    });
  });
});
