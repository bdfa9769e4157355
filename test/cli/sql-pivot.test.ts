/**
 * `sql` runs a PIVOT without an IN list. DuckDB's parser answers it as two statements (a CREATE
 * TYPE of the values found, then the PIVOT over it), and the one-statement check refused it as
 * `give exactly one SQL statement (got 2)`. Two statements written are still refused, a second
 * CREATE or PIVOT included, so that none runs unseen.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-sql-pivot-"));
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const sql = (...args: string[]) => runInProcess(["sql", ...args], cwd);
const VALUES = "(FROM (VALUES ('a', 1), ('b', 2), ('a', 3)) t(k, v))";
const PIVOT = `PIVOT ${VALUES} ON k USING sum(v)`;

describe("sql with a PIVOT without an IN list", () => {
  it("prints its columns, one per value found, in each format", async () => {
    const table = await sql(PIVOT);
    expect(table.stderr).toBe("");
    expect(table.code).toBe(0);
    expect(table.stdout).toBe("a | b\n--+--\n4 | 2\n(1 row)\n");

    const csv = await sql(`${PIVOT}; -- as typed`, "--format", "csv");
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe("a,b\r\n4,2\r\n");

    const commented = await sql(`${PIVOT}; /* by k */`);
    expect(commented.code, commented.stderr).toBe(0);
    expect(commented.stdout).toBe("a | b\n--+--\n4 | 2\n(1 row)\n");

    const json = await sql(`WITH p AS (${PIVOT}) FROM p`, "--format", "json");
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([{ a: 4, b: 2 }]);
  });

  it("still refuses two statements, whichever comes first", async () => {
    for (const two of [
      `SELECT 1; ${PIVOT}`,
      `${PIVOT}; SELECT 1`,
      "CREATE TEMP TABLE t AS SELECT 1 AS x; SELECT x FROM t",
      // DuckDB ends a `--` comment at a carriage return: the text after it is a second statement.
      `SELECT error('ran unseen');\n-- note\rFROM ${VALUES} LIMIT 1`,
    ]) {
      const run = await sql(two);
      expect(run.code, two).toBe(2);
      expect(run.stdout, two).toBe("");
      expect(run.stderr, two).toMatch(/^lms-export: give exactly one SQL statement \(got \d\)\n$/);
    }
  });
});
