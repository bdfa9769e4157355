/**
 * A CSV saved by a spreadsheet ends every line with the delimiters of columns it once formatted
 * (`User ID;Name;;`): those columns have neither a header nor a value, and `roster import` leaves
 * them out instead of adding an empty `column_N` to `user` for good. A headerless column that
 * holds a value is still imported (as `column_N`), so no value is lost.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { describe, expect, test } from "vitest";
import { USER_BASE_COLUMNS } from "../../src/load/user-table.js";
import { cli, query, users, withTempDir } from "./roster-cli.js";

describe("columns with neither a header nor a value", () => {
  test("are left out of a CSV import (replace and merge), a headerless column with values is kept", async () => {
    await withTempDir(async (dir) => {
      const db = join(dir, "lms.duckdb");
      const lines = ["User ID;First Name;Site;;", "1;Ana;Leeds;;", "2;Bo;York;;", ";;;;", ""];
      await writeFile(join(dir, "excel.csv"), `\ufeff${lines.join("\r\n")}`);
      const run = await cli(["roster", "import", "excel.csv", "--db", "lms.duckdb"], dir);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("columns: user_id, firstname, site; extra columns: site\n");
      expect((await users(db)).columns).toEqual([...USER_BASE_COLUMNS, "site"]);
      expect(await query(db, "SELECT * FROM _roster_columns")).toEqual([
        { header_name: "site", occurrence: 1, column_name: "site" },
      ]);

      await writeFile(join(dir, "more.csv"), "User ID;First Name;;\r\n1;Ana;note;\r\n");
      const merged = await cli(
        ["roster", "import", "more.csv", "--db", "lms.duckdb", "--merge"],
        dir,
      );
      expect(merged.code, merged.stderr).toBe(0);
      expect(merged.stdout).toContain('extra columns: column_3; renamed: "" → column_3\n');
      const table = await users(db);
      expect(table.columns).toEqual([...USER_BASE_COLUMNS, "site", "column_3"]);
      expect(table.rows.map((row) => [row.user_id, row.site, row.column_3])).toEqual([
        [1n, "Leeds", "note"],
        [2n, "York", null],
      ]);
    });
  });

  test("are left out of an XLSX import", async () => {
    await withTempDir(async (dir) => {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet("People");
      sheet.addRow(["User ID", "First Name", null, "Site"]);
      sheet.addRow([1, "Ana", null, "Leeds"]);
      await book.xlsx.writeFile(join(dir, "people.xlsx"));
      const run = await cli(["roster", "import", "people.xlsx", "--db", "lms.duckdb"], dir);
      expect(run.code, run.stderr).toBe(0);
      expect((await users(join(dir, "lms.duckdb"))).columns).toEqual([
        ...USER_BASE_COLUMNS,
        "site",
      ]);
    });
  });
});
