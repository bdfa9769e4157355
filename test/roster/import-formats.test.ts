/**
 * `roster import` of the same people from every format a roster arrives in, each file written by
 * an independent writer (bytes by hand, exceljs, polars), read back from the DuckDB file.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import ExcelJS from "exceljs";
import { describe, expect, test } from "vitest";
import { USER_BASE_COLUMNS } from "../../src/load/user-table.js";
import { expectedRows, FIELDS, HEADERS, hrCsv, PEOPLE } from "./hr-fixture.js";
import { cli, imports, users, withTempDir } from "./roster-cli.js";

const ALL_COLUMNS = [...USER_BASE_COLUMNS, "department", "manager_email", "notes"];

describe("roster import, CSV as HR systems write it", () => {
  test.each([
    [",", '","'],
    [";", '";"'],
    ["\t", "tab"],
    ["|", '"|"'],
  ])(
    "delimiter %j: BOM, CRLF, quoted fields, accents, CJK and = kept as data",
    async (d, shown) => {
      await withTempDir(async (dir) => {
        await writeFile(join(dir, "people.csv"), hrCsv(d));
        const run = await cli(["roster", "import", "people.csv", "--db", "lms.duckdb"], dir);
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        expect(run.stdout).toBe(
          `roster import: 4 rows from people.csv (CSV, delimiter ${shown}) into lms.duckdb (a new database), mode replace; columns: ${FIELDS.join(", ")}; extra columns: department, manager_email, notes\n`,
        );
        const table = await users(join(dir, "lms.duckdb"));
        expect(table.columns).toEqual(ALL_COLUMNS);
        expect(table.rows).toEqual(expectedRows());
      });
    },
  );

  test("LMS_DB names the database when --db is absent", async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, "people.csv"), hrCsv(","));
      const run = await cli(["roster", "import", "people.csv"], dir, {
        LMS_DB: join(dir, "env.duckdb"),
      });
      expect(run.code).toBe(0);
      expect((await users(join(dir, "env.duckdb"))).rows).toHaveLength(PEOPLE.length);
    });
  });
});

async function writeWorkbook(path: string): Promise<void> {
  const book = new ExcelJS.Workbook();
  const staff = book.addWorksheet("Staff");
  staff.addRow([...HEADERS, "Start Date"]);
  for (const person of PEOPLE) {
    staff.addRow([...FIELDS.map((name) => person[name]), new Date(Date.UTC(2024, 2, 1))]);
  }
  const contractors = book.addWorksheet("Contractors");
  contractors.addRow(["ID", "Given Name", "Family Name", "Mail", "Agency"]);
  contractors.addRow([]);
  contractors.addRow([5001, "Ana", "Lopez", "ana@agency.example", "=Temps Ltd"]);
  contractors.addRow([
    5002,
    { richText: [{ text: "Bo" }, { text: "b" }] },
    "Ek",
    null,
    "Temps Ltd",
  ]);
  await book.xlsx.writeFile(path);
}

describe("roster import, XLSX written by exceljs", () => {
  test("the first sheet by default: numbers, dates and text as text", async () => {
    await withTempDir(async (dir) => {
      await writeWorkbook(join(dir, "hr.xlsx"));
      const run = await cli(["roster", "import", "hr.xlsx", "--db", "lms.duckdb"], dir);
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain('(XLSX, sheet "Staff")');
      const table = await users(join(dir, "lms.duckdb"));
      expect(table.columns).toEqual([...ALL_COLUMNS, "start_date"]);
      expect(table.rows).toEqual(
        // XML turns the CRLF inside a cell into LF.
        expectedRows().map((row) => ({
          ...row,
          notes: typeof row.notes === "string" ? row.notes.replaceAll("\r\n", "\n") : null,
          start_date: "2024-03-01",
        })),
      );
    });
  });

  test("--sheet picks another sheet; blank rows are skipped, rich text is text", async () => {
    await withTempDir(async (dir) => {
      await writeWorkbook(join(dir, "hr.xlsx"));
      const run = await cli(
        ["roster", "import", "hr.xlsx", "--sheet", "Contractors", "--db", "lms.duckdb"],
        dir,
      );
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain("extra columns: agency");
      const table = await users(join(dir, "lms.duckdb"));
      expect(table.rows).toEqual([
        expect.objectContaining({
          user_id: 5001n,
          firstname: "Ana",
          lastname: "Lopez",
          agency: "=Temps Ltd",
        }),
        expect.objectContaining({ user_id: 5002n, firstname: "Bob", email: null }),
      ]);
    });
  });

  test("an unknown sheet name lists the sheets (exit 2)", async () => {
    await withTempDir(async (dir) => {
      await writeWorkbook(join(dir, "hr.xlsx"));
      const run = await cli(
        ["roster", "import", "hr.xlsx", "--sheet", "People", "--db", "lms.duckdb"],
        dir,
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        'lms-export: hr.xlsx has no sheet "People"; its sheets are "Staff", "Contractors": pass one with --sheet\n',
      );
    });
  });
});

/**
 * The people as a Parquet file with typed columns (user_id BIGINT), written by a DuckDB of its own
 * (nodejs-polars has no native binary for this platform installed).
 */
async function writeParquet(path: string): Promise<void> {
  const instance = await DuckDBInstance.create(":memory:");
  try {
    const connection = await instance.connect();
    const columns = HEADERS.map((h, i) => `"${h}" ${i === 0 ? "BIGINT" : "VARCHAR"}`);
    await connection.run(`CREATE TABLE people (${columns.join(", ")})`);
    const marks = HEADERS.map((_, i) => `$${i + 1}`).join(", ");
    for (const person of PEOPLE) {
      await connection.run(
        `INSERT INTO people VALUES (${marks})`,
        FIELDS.map((name) => person[name]),
      );
    }
    await connection.run("COPY people TO $path (FORMAT parquet)", { path });
  } finally {
    instance.closeSync();
  }
}

describe("roster import, Parquet and JSON lines", () => {
  test("Parquet with an integer user_id column", async () => {
    await withTempDir(async (dir) => {
      await writeParquet(join(dir, "people.parquet"));
      const run = await cli(["roster", "import", "people.parquet", "--db", "lms.duckdb"], dir);
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain("(PARQUET, Parquet)");
      expect((await users(join(dir, "lms.duckdb"))).rows).toEqual(expectedRows());
    });
  });

  test("a Parquet file whose name is a glob pattern is read alone", async () => {
    await withTempDir(async (dir) => {
      await writeParquet(join(dir, "roster_*.parquet"));
      // A file the pattern matches, with other columns: read with it, the import would fail.
      await writeFile(join(dir, "roster_1.parquet"), "not parquet");
      const run = await cli(["roster", "import", "roster_*.parquet", "--db", "lms.duckdb"], dir);
      expect(run.stderr).toBe("");
      expect((await users(join(dir, "lms.duckdb"))).rows).toEqual(expectedRows());
    });
  });

  test("JSON lines: keys in first-met order, numbers as text, a key some lines lack", async () => {
    await withTempDir(async (dir) => {
      const lines = PEOPLE.map((person) =>
        JSON.stringify(Object.fromEntries(FIELDS.map((name, i) => [HEADERS[i], person[name]]))),
      );
      lines.splice(2, 0, "");
      lines.push(JSON.stringify({ "User ID": 1005, "Cost Centre": 42, Remote: true }));
      await writeFile(join(dir, "people.jsonl"), `${lines.join("\n")}\n`);
      const run = await cli(["roster", "import", "people.jsonl", "--db", "lms.duckdb"], dir);
      expect(run.stderr).toBe("");
      const table = await users(join(dir, "lms.duckdb"));
      expect(table.columns).toEqual([...ALL_COLUMNS, "cost_centre", "remote"]);
      expect(table.rows.slice(0, 4)).toEqual(
        expectedRows().map((row) => ({ ...row, cost_centre: null, remote: null })),
      );
      expect(table.rows[4]).toMatchObject({
        user_id: 1005n,
        cost_centre: "42",
        remote: "true",
        email: null,
      });
      expect((await imports(join(dir, "lms.duckdb")))[0]).toMatchObject({
        rows: 5n,
        mode: "replace",
      });
    });
  });
});
