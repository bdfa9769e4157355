/**
 * `roster import` of a file whose header is not its first row: an export's title, merged or not,
 * above the real header. Refused (the header row is never guessed), with an error that says the
 * header must be the first row, that row 1 looks like a title, and where a user_id header was
 * seen; the roster imported before is left as it was.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { describe, expect, test } from "vitest";
import { hrCsv } from "./hr-fixture.js";
import { cli, users, withTempDir } from "./roster-cli.js";

/** Imports `file` over a good roster; expects exit 2, one line, the roster unchanged. */
async function refused(dir: string, file: string): Promise<string> {
  await writeFile(join(dir, "good.csv"), hrCsv(","));
  expect((await cli(["roster", "import", "good.csv", "--db", "lms.duckdb"], dir)).code).toBe(0);
  const before = await users(join(dir, "lms.duckdb"));
  const run = await cli(["roster", "import", file, "--db", "lms.duckdb"], dir);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  expect(await users(join(dir, "lms.duckdb"))).toEqual(before);
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  return lines[0] as string;
}

describe("roster import: a header that is not the first row", () => {
  test("CSV: a title line, a blank line, then the header", async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, "hdr3.csv"), "Roster export\n\nid,name\n1,a\n");
      expect(await refused(dir, "hdr3.csv")).toBe(
        'lms-export: hdr3.csv has no user_id column: the header must be the first line, and line 1 looks like a title ("Roster export"); the header seems to be on line 3: delete the lines above it and import again',
      );
    });
  });

  test("XLSX: a title merged over the columns is named once", async () => {
    await withTempDir(async (dir) => {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet("People");
      sheet.getCell("A1").value = "Training roster, November";
      sheet.mergeCells("A1:E1");
      sheet.getRow(2).values = ["Exported 2026-11-27"];
      sheet.getRow(4).values = ["User ID", "First Name", "Last Name", "Email", "Site"];
      sheet.getRow(5).values = [1, "Ana", "Ek", "ana@example.com", "Leeds"];
      await book.xlsx.writeFile(join(dir, "titled.xlsx"));
      expect(await refused(dir, "titled.xlsx")).toBe(
        'lms-export: titled.xlsx, sheet "People" has no user_id column: the header must be the first row, and row 1 looks like a title ("Training roster, November"); the header seems to be on row 4: delete the rows above it and import again',
      );
    });
  });

  test("a title and no user_id header below it: delete the rows above, or add the column", async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, "title.csv"), "Roster export\nname,site\nAna,Leeds\n");
      expect(await refused(dir, "title.csv")).toBe(
        'lms-export: title.csv has no user_id column: the header must be the first line, and line 1 looks like a title ("Roster export"); delete the lines above the header, or add a column named "user_id" (or "User ID", "id") holding each person\'s portal user id',
      );
    });
  });

  test("a header of several columns with the user_id header rows below it", async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, "two.csv"), "Report,Date\nRoster,2026-11-27\nid,name\n1,a\n");
      expect(await refused(dir, "two.csv")).toBe(
        'lms-export: two.csv has no user_id column (found "Report", "Date"): the header must be the first line; the header seems to be on line 3: delete the lines above it and import again',
      );
    });
  });
});
