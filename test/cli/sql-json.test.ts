/**
 * `sql --format json` writes what DuckDB holds: numbers a double cannot give back exactly as
 * strings of their exact digits, value by value, as whole numbers past 2^53 already were.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-sql-json-");

beforeAll(async () => {
  (await openDatabase(join(dir, "lms.duckdb"))).close();
});

/** The rows `sql --format json` prints for `query`, parsed; fails on any error. */
async function jsonRows(query: string): Promise<unknown> {
  const run = await runInProcess(["sql", query, "--format", "json"], dir);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout);
}

describe("sql --format json: numbers", () => {
  it("writes a DECIMAL a double would round as its exact digits, value by value", async () => {
    const rows = await jsonRows(
      `SELECT 99999999999999.99::DECIMAL(18,2) AS a, 12345678901234567.89::DECIMAL(38,2) AS b,
              -99999999999999.99::DECIMAL(18,2) AS c, 9007199254740993::DECIMAL(20,0) AS d,
              [1.25::DECIMAL(18,2), 99999999999999.99::DECIMAL(18,2)] AS l`,
    );
    expect(rows).toEqual([
      {
        a: "99999999999999.99",
        b: "12345678901234567.89",
        c: "-99999999999999.99",
        d: "9007199254740993",
        l: [1.25, "99999999999999.99"],
      },
    ]);
  });

  it("keeps a DECIMAL a double gives back exactly as a number, as whole numbers", async () => {
    const rows = await jsonRows(
      `SELECT 1.50::DECIMAL(4,2) AS a, -0.05::DECIMAL(4,2) AS b, 0.000000100::DECIMAL(10,9) AS c,
              123456789012.345::DECIMAL(18,3) AS d, 9007199254740991::DECIMAL(20,0) AS e,
              9007199254740991::BIGINT AS f, 9007199254740993::BIGINT AS g`,
    );
    expect(rows).toEqual([
      {
        a: 1.5,
        b: -0.05,
        c: 1e-7,
        d: 123456789012.345,
        e: 9007199254740991,
        f: 9007199254740991,
        g: "9007199254740993",
      },
    ]);
  });
});
