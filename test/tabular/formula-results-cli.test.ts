/**
 * `roster import` of a workbook whose formulas saved 0 or an empty text: the sheet shows those,
 * so they are imported as such (0, and an empty cell), not refused as formulas with no saved
 * value. The cells are read as the reader reads them for `apply` too (test/tabular/xlsx-reader.test.ts).
 */
import { join } from "node:path";
import ExcelJS from "exceljs";
import { expect, test } from "vitest";
import { cli, users, withTempDir } from "../roster/roster-cli.js";

test("roster import takes a formula's saved 0 and empty text as the sheet shows them", async () => {
  await withTempDir(async (dir) => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet("People").addRows([
      ["User ID", "First Name", "Employee ID", "Email"],
      [1, "Ana", { formula: "IF(A2>5000,1,0)", result: 0 }, "ana@x.org"],
      [2, { formula: 'IF(A3>5000,"x","")', result: "" }, "B-2", "bo@x.org"],
    ]);
    await book.xlsx.writeFile(join(dir, "people.xlsx"));
    const run = await cli(["roster", "import", "people.xlsx", "--db", "lms.duckdb"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const { rows } = await users(join(dir, "lms.duckdb"));
    expect(
      rows.map((row) => [row.user_id, row.firstname, row.user_organisation_identifier]),
    ).toEqual([
      [1n, "Ana", "0"],
      [2n, null, "B-2"],
    ]);
  });
});
