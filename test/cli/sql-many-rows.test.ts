/**
 * `sql` prints many rows, written in batches, as whole documents another reader takes back value
 * for value: CSV read by DuckDB's read_csv, JSON by JSON.parse. The rows hold quotes, commas,
 * line breaks, multi-byte characters and formulas, in rows that straddle the batches. Through
 * main(), on a real DuckDB file.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-sql-many-");
const ROWS = 30_000;

beforeAll(async () => {
  (await openDatabase(join(dir, "lms.duckdb"))).close();
});

const QUERY = `SELECT i AS id,
  CASE i % 5 WHEN 0 THEN 'plain ' || i WHEN 1 THEN 'a,"quoted" ' || i
    WHEN 2 THEN 'two' || chr(10) || 'lines ' || i WHEN 3 THEN 'ünï ✓ ' || i
    ELSE '=formula ' || i END AS label,
  i / 2 AS half, i % 3 = 0 AS flag, CASE WHEN i % 7 = 0 THEN NULL ELSE 'm' || i END AS maybe
  FROM range(${ROWS}) t(i)`;

/** The label of row `i`, as the query makes it. */
function label(i: number): string {
  return [`plain ${i}`, `a,"quoted" ${i}`, `two\nlines ${i}`, `ünï ✓ ${i}`, `=formula ${i}`][
    i % 5
  ] as string;
}

async function printed(format: string): Promise<string> {
  const run = await runInProcess(["sql", QUERY, "--format", format], dir);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

describe("sql prints many rows whole", () => {
  it("as CSV that DuckDB's read_csv reads back value for value", async () => {
    const file = join(dir, "rows.csv");
    await writeFile(file, await printed("csv"));
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    let rows: unknown[][];
    try {
      const read = `SELECT * FROM read_csv('${file}', header = true, all_varchar = true,
        delim = ',', quote = '"', escape = '"')`;
      rows = (await connection.runAndReadAll(read)).getRows();
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    expect(rows).toHaveLength(ROWS);
    rows.forEach((row, i) => {
      const text = label(i);
      expect(row).toEqual([
        String(i),
        text.startsWith("=") ? `'${text}` : text,
        String(i / 2),
        String(i % 3 === 0),
        i % 7 === 0 ? null : `m${i}`,
      ]);
    });
  });

  it("as JSON that JSON.parse reads back value for value", async () => {
    const rows = JSON.parse(await printed("json")) as unknown[];
    expect(rows).toHaveLength(ROWS);
    rows.forEach((row, i) => {
      expect(row).toEqual({
        id: i,
        label: label(i),
        half: i / 2,
        flag: i % 3 === 0,
        maybe: i % 7 === 0 ? null : `m${i}`,
      });
    });
  });
});
