/**
 * Every kind of bad roster: one error line listing the problems with their places, exit code 2,
 * and the roster imported before (rows, columns and `_roster_imports`) exactly as it was.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeDamagedParquet } from "../helpers/damaged-parquet.js";
import { writeZeroSized } from "../helpers/zero-size-xlsx.js";
import { hrCsv } from "./hr-fixture.js";
import { cli, imports, query, users } from "./roster-cli.js";

let dir: string;
let before: Awaited<ReturnType<typeof users>>;
let importsBefore: Record<string, unknown>[];

beforeAll(async () => {
  // One database with a good roster for every case; each case must leave it unchanged.
  dir = await mkdtemp(join(tmpdir(), "lms-roster-bad-"));
  await writeFile(join(dir, "good.csv"), hrCsv(","));
  const run = await cli(["roster", "import", "good.csv", "--db", "lms.duckdb"], dir);
  expect(run.code).toBe(0);
  before = await users(join(dir, "lms.duckdb"));
  importsBefore = await imports(join(dir, "lms.duckdb"));
  await mkdir(join(dir, "folder.csv"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function importFails(file: string, extra: string[] = []): Promise<string> {
  const run = await cli(["roster", "import", file, "--db", "lms.duckdb", ...extra], dir);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(await users(join(dir, "lms.duckdb"))).toEqual(before);
  expect(await imports(join(dir, "lms.duckdb"))).toEqual(importsBefore);
  const staging = await query(
    join(dir, "lms.duckdb"),
    "SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = '_roster_staging'",
  );
  expect(staging).toEqual([{ n: 0 }]);
  return lines[0] as string;
}

async function csvFails(text: string | Buffer, name = "bad.csv"): Promise<string> {
  await writeFile(join(dir, name), text);
  return importFails(name);
}

describe("a bad roster changes nothing and says what to fix", () => {
  test("no user_id column: the columns found are named", async () => {
    expect(await csvFails("Name,E-mail,Department\nAna,a@x.org,Sales\n")).toBe(
      'lms-export: bad.csv has no user_id column (found "Name", "E-mail", "Department"); add one named "user_id" (or "User ID", "id") holding each person\'s portal user id',
    );
  });

  test("empty, non-integer and duplicate user_id, a row too wide: all listed with their lines", async () => {
    const text = [
      "id,name,notes",
      "1,Ana,ok",
      ",Bo,no id",
      "x12,Cy,not a number",
      '7,"Di',
      'ana",two lines',
      "1,Ed,again",
      "9,Fay,too,many",
      "99999999999999999999,Gil,too large",
      "3.0,Hal,a whole number written by a spreadsheet",
    ].join("\r\n");
    expect(await csvFails(text)).toBe(
      'lms-export: bad.csv: 5 problems, nothing was imported (the previous roster is unchanged): line 3: user_id is empty; line 4: user_id "x12" is not a whole number; line 7: user_id 1 is also on line 2; line 8: 4 fields but the header has 3; line 9: user_id "99999999999999999999" is too large. Fix the file and import it again',
    );
  });

  test("a long cell is quoted cut short, so the line stays readable", async () => {
    const long = "7".repeat(30_000);
    const line = await csvFails(`user_id,name\n${long}x,Ana\n${long},Bo\n`);
    expect(line).toContain(
      `line 2: user_id "${"7".repeat(60)}"... (30001 characters) is not a whole number`,
    );
    expect(line).toContain(
      `line 3: user_id "${"7".repeat(60)}"... (30000 characters) is too large`,
    );
    expect(line.length).toBeLessThan(500);
  });

  test("past ten problems the rest are counted", async () => {
    const rows = Array.from({ length: 14 }, (_, i) => `n${i},x`);
    expect(await csvFails(`user_id,name\n${rows.join("\n")}\n`)).toMatch(
      /^lms-export: bad\.csv: 14 problems, .*line 11: user_id "n9" is not a whole number; and 4 more\. Fix the file and import it again$/,
    );
  });

  test("a quoted field never closed ends the reading, after the problems before it", async () => {
    expect(await csvFails('user_id;name\n1;Ana\nzz;Bo\n2;"Cy\n3;Di\n')).toBe(
      'lms-export: bad.csv: 2 problems, nothing was imported (the previous roster is unchanged): line 3: user_id "zz" is not a whole number; line 4: a quoted field starts here and is never closed. Fix the file and import it again',
    );
  });

  test("a last line with fewer fields and no line break after it is taken as cut short", async () => {
    // As a file still being written, or a copy cut off, ends: its last person half there.
    expect(await csvFails("user_id,name,email\n1,Ana,ana@example.com\n2,Bo")).toBe(
      "lms-export: bad.csv: 1 problem, nothing was imported (the previous roster is unchanged): line 3: only 2 of the header's 3 fields, and the file ends there without a line break: it looks cut short (still being written, or copied only in part); take the file once it is whole, or complete the line. Fix the file and import it again",
    );
  });

  test("a header only", async () => {
    expect(await csvFails("\uFEFFUser ID,Name\r\n\r\n")).toBe(
      "lms-export: bad.csv has a header but no rows; nothing was imported (an empty roster would remove everyone)",
    );
  });

  test.each([
    ["an empty file", "", "lms-export: bad.csv is empty: it has no header and no rows"],
    [
      "blank lines only",
      "\uFEFF\r\n\r\n",
      "lms-export: bad.csv is empty: it has no header and no rows",
    ],
    [
      "not UTF-8",
      Buffer.from("user_id,name\n1,Jos\xe9\n", "latin1"),
      'lms-export: bad.csv is not UTF-8 text (line 2 is the first that is not); save it as "CSV UTF-8" and run the command again',
    ],
    [
      "one line not UTF-8 in a UTF-8 file",
      Buffer.concat([
        Buffer.from('\uFEFFuser_id,name\r\n1,Zoë\r\n2,"Ann\nMarie"\r\n', "utf8"),
        Buffer.from("3,Jos\xe9\r\n", "latin1"),
        Buffer.from("4,Bob\r\n", "utf8"),
      ]),
      'lms-export: bad.csv is not UTF-8 text (line 5 is the first that is not); save it as "CSV UTF-8" and run the command again',
    ],
    [
      "UTF-16 (Excel's Unicode Text)",
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from("user_id\tname\r\n1\tZoë\r\n", "utf16le"),
      ]),
      'lms-export: bad.csv is UTF-16 text (as Excel\'s "Unicode Text"), not UTF-8; save it as "CSV UTF-8" and run the command again',
    ],
    [
      "two columns meaning the same field",
      "user_id,Email,E-mail\n1,a,b\n",
      'lms-export: bad.csv: columns "Email" and "E-mail" both mean email; rename or remove one and import again',
    ],
  ])("%s", async (_, text, message) => {
    expect(await csvFails(text)).toBe(message);
  });

  test("a missing file, a directory, a legacy .xls, a broken workbook", async () => {
    expect(await importFails("missing.csv")).toBe("lms-export: missing.csv does not exist");
    expect(await importFails("folder.csv")).toBe(
      "lms-export: folder.csv is a directory; give a file",
    );
    await writeFile(
      join(dir, "old.xls"),
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
    );
    expect(await importFails("old.xls")).toBe(
      "lms-export: old.xls is a legacy Excel (.xls) file; save it as .xlsx or as CSV UTF-8 and run the command on that file",
    );
    await writeFile(join(dir, "broken.xlsx"), Buffer.from("PK\u0003\u0004 not really a zip"));
    expect(await importFails("broken.xlsx")).toMatch(
      /^lms-export: broken\.xlsx cannot be read as an XLSX workbook \(.+\)$/,
    );
    await writeFile(join(dir, "fake.parquet"), "user_id\n1\n");
    expect(await importFails("fake.parquet")).toBe(
      "lms-export: fake.parquet is not a Parquet file",
    );
  });

  test("into a database that did not exist, a failed import leaves no database behind", async () => {
    await writeFile(join(dir, "dup.csv"), "user_id,email\n1,a@x.org\n1,b@x.org\n");
    for (const file of ["missing.csv", "dup.csv"]) {
      const run = await cli(["roster", "import", file, "--db", "new.duckdb"], dir);
      expect(run.code).toBe(2);
      expect(existsSync(join(dir, "new.duckdb"))).toBe(false);
      expect(existsSync(join(dir, "new.duckdb.wal"))).toBe(false);
    }
  });

  test("XLSX problems are placed by sheet row number", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("People");
    sheet.addRow(["Title line of the export"]);
    sheet.getRow(3).values = ["User ID", "First Name"];
    sheet.getRow(4).values = [1, "Ana"];
    sheet.getRow(6).values = ["abc", "Bo"];
    sheet.getRow(7).values = [1, "Cy", "stray"];
    await book.xlsx.writeFile(join(dir, "people.xlsx"));
    // The first non-empty row is the header: here a title, so there is no user_id column.
    expect(await importFails("people.xlsx")).toBe(
      'lms-export: people.xlsx, sheet "People" has no user_id column: the header must be the first row, and row 1 looks like a title ("Title line of the export"); the header seems to be on row 3: delete the rows above it and import again',
    );
    sheet.spliceRows(1, 1);
    await book.xlsx.writeFile(join(dir, "people.xlsx"));
    expect(await importFails("people.xlsx")).toBe(
      'lms-export: people.xlsx, sheet "People": 2 problems, nothing was imported (the previous roster is unchanged): row 5: user_id "abc" is not a whole number; row 6: 3 fields but the header has 2. Fix the file and import it again',
    );
  });

  test("a spreadsheet error in a cell is a problem, not a name", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("People");
    sheet.addRow(["User ID", "Email"]);
    sheet.addRow([1, "ana@example.com"]);
    sheet.addRow([2, { formula: "VLOOKUP(A3,Sheet2!A:B,2,FALSE)", result: { error: "#N/A" } }]);
    await book.xlsx.writeFile(join(dir, "lookup.xlsx"));
    expect(await importFails("lookup.xlsx")).toBe(
      'lms-export: lookup.xlsx, sheet "People": 1 problem, nothing was imported (the previous roster is unchanged): row 3: email holds the spreadsheet error #N/A. Fix the file and import it again',
    );
  });

  test("a hidden first sheet is refused, naming it and the visible sheets to pass with --sheet", async () => {
    const book = new ExcelJS.Workbook();
    const old = book.addWorksheet("Old roster");
    old.state = "hidden";
    old.addRow(["user_id", "email"]);
    old.addRow([1, "old@example.com"]);
    book.addWorksheet("Staff").addRow(["user_id", "email"]);
    book.getWorksheet("Staff")?.addRow([1, "ana@example.com"]);
    book.addWorksheet("Notes").addRow(["Read me"]);
    await book.xlsx.writeFile(join(dir, "hidden-first.xlsx"));
    expect(await importFails("hidden-first.xlsx")).toBe(
      'lms-export: hidden-first.xlsx: its first sheet "Old roster" is hidden, and the first sheet is the one read without --sheet: pass --sheet NAME with the visible sheet holding the columns (its visible sheets: "Staff", "Notes"), or unhide "Old roster"',
    );
  });

  test("hidden rows and columns are refused, each named, not imported unseen", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("People");
    // A column with no header is imported too (as column_4), so hiding it hides values as well.
    sheet.addRow(["User ID", "First Name", "Manager Email", null, "Site"]);
    sheet.addRow([1, "Ana", "m@example.com", "x", "Leeds"]);
    // Hidden by hand, and as a filter leaves rows out: both are `hidden` on the row.
    sheet.addRow([2, "Bo", "m@example.com", null, "Leeds"]).hidden = true;
    sheet.addRow([3, "Cy", "m@example.com", null, "York"]);
    sheet.getColumn(3).hidden = true;
    sheet.getColumn(4).hidden = true;
    await book.xlsx.writeFile(join(dir, "hidden.xlsx"));
    expect(await importFails("hidden.xlsx")).toBe(
      'lms-export: hidden.xlsx, sheet "People": 3 problems, nothing was imported (the previous roster is unchanged): header: column "Manager Email" is hidden in the sheet, and what it holds would be imported unseen: unhide it, or delete the column; header: column 4 (no header) is hidden in the sheet, and what it holds would be imported unseen: unhide it, or delete the column; row 3: the sheet hides this row (by hand or by a filter): unhide it or clear the filter, or delete the row. Fix the file and import it again',
    );

    // Unused columns hidden past the header hold nothing to import.
    sheet.getRow(3).hidden = false;
    sheet.getColumn(3).hidden = false;
    sheet.getColumn(4).hidden = false;
    for (let column = 6; column <= 30; column++) sheet.getColumn(column).hidden = true;
    await book.xlsx.writeFile(join(dir, "hidden.xlsx"));
    const run = await cli(["roster", "import", "hidden.xlsx", "--db", "other.duckdb"], dir);
    expect(run.code, run.stderr).toBe(0);
  });

  test("a first sheet without a user_id column is named, and a sheet with one is pointed to", async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet("Instructions").addRow(["How to fill in this file"]);
    const staff = book.addWorksheet("Staff list");
    staff.addRow(["User ID", "Email"]);
    staff.addRow([1, "ana@example.com"]);
    await book.xlsx.writeFile(join(dir, "two-sheets.xlsx"));
    expect(await importFails("two-sheets.xlsx")).toBe(
      'lms-export: two-sheets.xlsx, sheet "Instructions" has no user_id column (found "How to fill in this file"); sheet "Staff list" has one: import it with --sheet "Staff list"',
    );
  });

  test("a row of zero height and a column of zero width are refused as hidden ones are", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("People");
    sheet.addRow(["User ID", "First Name", "Manager Email", "Site"]);
    sheet.addRow([1, "Ana", "m@example.com", "Leeds"]);
    sheet.addRow([2, "Bo", "m@example.com", "Leeds"]);
    // Shut by dragging the border: no `hidden` on them, a size of 0 (see the helper).
    await writeZeroSized(book, join(dir, "shut.xlsx"), { rows: [3], columns: [3] });
    expect(await importFails("shut.xlsx")).toBe(
      'lms-export: shut.xlsx, sheet "People": 2 problems, nothing was imported (the previous roster is unchanged): header: column "Manager Email" is hidden in the sheet, and what it holds would be imported unseen: unhide it, or delete the column; row 3: the sheet hides this row (by hand or by a filter): unhide it or clear the filter, or delete the row. Fix the file and import it again',
    );
  });

  test("a JSON array that does not parse: one line, placed on its line when the parser says where", async () => {
    await writeFile(join(dir, "people.json"), '[\n{"user_id": 1},\n{"user_id": 2 "x": 1}\n]\n');
    expect(await importFails("people.json")).toMatch(
      /^lms-export: people\.json line 3: not JSON \(.+\)$/,
    );
    // A message quoting the text (line breaks included) stays one line.
    await writeFile(join(dir, "quoted.json"), '[\n{"user_id": 1},\n{"user_id": }\n]\n');
    expect(await importFails("quoted.json")).toMatch(
      /^lms-export: quoted\.json line \d+: not JSON \(.+\)$/,
    );
  });

  test("JSON lines: a line that is not an object", async () => {
    await writeFile(join(dir, "people.jsonl"), '{"user_id": 1}\n[1, 2]\n');
    expect(await importFails("people.jsonl")).toBe(
      'lms-export: people.jsonl line 2: expected a JSON object ({"user_id": ...})',
    );
  });

  test("JSON: a key written twice in one object is refused, not read as its last value", async () => {
    await writeFile(
      join(dir, "twice.jsonl"),
      '{"user_id": 1, "name": "a"}\n{"user_id": 2, "name": "b", "user_id": 3}\n',
    );
    expect(await importFails("twice.jsonl")).toBe(
      'lms-export: twice.jsonl line 2: key "user_id" is written twice in one object, and only the last would count: remove one',
    );
    await writeFile(
      join(dir, "twice.json"),
      '[\n{"user_id": 1},\n{"user_id": 2,\n "user_id": 3}\n]\n',
    );
    expect(await importFails("twice.json")).toBe(
      'lms-export: twice.json line 4: key "[1].user_id" is written twice in one object, and only the last would count: remove one',
    );
  });

  test("JSON: a number past 2^53, which JSON.parse rounds, is refused, not stored as another id", async () => {
    await writeFile(
      join(dir, "big.jsonl"),
      '{"user_id": 1, "badge": 12}\n{"user_id": 9007199254740993}\n{"user_id": "9007199254740995", "badge": 18446744073709551616}\n',
    );
    expect(await importFails("big.jsonl")).toBe(
      "lms-export: big.jsonl: 2 problems, nothing was imported (the previous roster is unchanged): line 2: user_id is a JSON number past 2^53 (read as 9007199254740992), which JSON readers round: write it in quotes, as a string; line 3: badge is a JSON number past 2^53 (read as 18446744073709552000), which JSON readers round: write it in quotes, as a string. Fix the file and import it again",
    );
  });

  test("a Parquet file that fails to decode part-way: refused, not imported as its first rows", async () => {
    await writeDamagedParquet(
      join(dir, "damaged.parquet"),
      "SELECT i + 1 AS user_id, md5(i::VARCHAR) AS name FROM range(100000) t(i)",
      "name",
    );
    expect(await importFails("damaged.parquet")).toMatch(
      /^lms-export: damaged\.parquet cannot be read as Parquet \(.*Error: .+\)$/,
    );
  });

  test("--sheet on a CSV", async () => {
    await writeFile(join(dir, "ok.csv"), "user_id\n1\n");
    expect(await importFails("ok.csv", ["--sheet", "People"])).toBe(
      "lms-export: ok.csv is CSV, which has no sheets; leave out --sheet",
    );
  });
});
