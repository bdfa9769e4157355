/**
 * A statement that fails while `sql` prints its rows. @duckdb/node-api ends such a streamed result
 * as if it were exhausted, so sql printed the rows it had, closed the JSON array and exited 0: a
 * document cut short read as whole. Now the error says the output is incomplete, the exit code is
 * 1, and a JSON document is left without its closing bracket, so no reader takes it as whole.
 * The statement fails on a late row: DuckDB streams the first ones before it reaches it. The table
 * prints nothing when it fails within its first block of rows, and past it as CSV does.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { TABLE_BLOCK_ROWS } from "../../src/report/print-table.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-sql-incomplete-");

beforeAll(async () => {
  (await openDatabase(join(dir, "lms.duckdb"))).close();
});

const LATE_FAILURE =
  "SELECT CASE WHEN i < 500000 THEN i ELSE error('boom') END AS v FROM range(1000000) t(i)";
const INCOMPLETE =
  /^lms-export: the output printed is incomplete: the statement failed after (\d+) rows/;

const sql = (...args: string[]) => runInProcess(["sql", ...args], dir);

describe("sql when the statement fails part-way", () => {
  it.each(["json", "csv"])("--format %s says the output is incomplete, exit 1", async (format) => {
    const run = await sql(LATE_FAILURE, "--format", format);
    expect(run.code).toBe(1);
    const printed = Number(INCOMPLETE.exec(run.stderr)?.[1]);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    // Some rows were printed before the failure: the case this is about.
    expect(printed).toBeGreaterThan(0);
    expect(printed).toBeLessThan(500001);
    if (format === "json") {
      expect(run.stdout.startsWith("[\n")).toBe(true);
      expect(run.stdout.trimEnd().endsWith("]")).toBe(false);
      expect(() => JSON.parse(run.stdout)).toThrow();
    } else {
      expect(run.stdout.split("\r\n").filter((line) => line !== "")).toHaveLength(printed + 1);
    }
  });

  it("--format table prints nothing when the statement fails within its first block", async () => {
    const early =
      "SELECT CASE WHEN i < 500 THEN i ELSE error('boom') END AS v FROM range(100000) t(i)";
    const run = await sql(early, "--format", "table");
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/boom/);
  });

  it("--format table past its first block prints the rows read and says the output is incomplete", async () => {
    const run = await sql(LATE_FAILURE, "--format", "table");
    expect(run.code).toBe(1);
    const printed = Number(INCOMPLETE.exec(run.stderr)?.[1]);
    expect(printed).toBeGreaterThan(TABLE_BLOCK_ROWS);
    expect(printed).toBeLessThan(500001);
    const lines = run.stdout.trimEnd().split("\n");
    // The rows, each under a header (printed again where the numbers grew wider); no row count.
    const rows = lines.filter((line) => /^ *\d+$/.test(line));
    expect(rows).toHaveLength(printed);
    expect(rows.at(-1)?.trim()).toBe(String(printed - 1));
    expect(run.stdout).not.toMatch(/rows\)/);
  });

  it("a statement that runs to its end still prints whole, exit 0", async () => {
    const run = await sql("SELECT i AS v FROM range(600000) t(i)", "--format", "json");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveLength(600000);
  });
});
