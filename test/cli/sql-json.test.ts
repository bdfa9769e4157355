/**
 * `sql --format json` writes what DuckDB holds: numbers a double cannot give back exactly as
 * strings of their exact digits, value by value, as whole numbers past 2^53 already were; every
 * kind of timestamp, at any depth, as ISO 8601 with its `Z`, and infinite or far ones as text;
 * structs and maps as objects.
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

describe("sql --format json: dates and timestamps", () => {
  it("writes infinite and far timestamps and dates as DuckDB's text, whole JSON", async () => {
    const rows = await jsonRows(
      `SELECT 'infinity'::TIMESTAMP AS a, '-infinity'::TIMESTAMP AS b,
              TIMESTAMP '294247-01-01' AS c, DATE 'infinity' AS d, DATE '-infinity' AS e,
              'infinity'::TIMESTAMP_NS AS f, '-infinity'::TIMESTAMPTZ AS g`,
    );
    expect(rows).toEqual([
      {
        a: "infinity",
        b: "-infinity",
        c: "294247-01-01 00:00:00",
        d: "infinity",
        e: "-infinity",
        f: "infinity",
        g: "-infinity",
      },
    ]);
  });

  it("writes an infinite date as infinity in CSV and in the table too", async () => {
    const query = "SELECT DATE 'infinity' AS d, '-infinity'::TIMESTAMP_MS AS t";
    const csv = await runInProcess(["sql", query, "--format", "csv"], dir);
    expect(csv.stdout).toBe("d,t\r\ninfinity,-infinity\r\n");
    const table = await runInProcess(["sql", query], dir);
    expect(table.stdout.split("\n")[2]).toBe("infinity | -infinity");
  });

  it("writes every kind of timestamp, also inside lists, as ISO 8601 with Z", async () => {
    const rows = await jsonRows(
      `SELECT [TIMESTAMP '2024-01-01', NULL] AS l,
              TIMESTAMP_NS '2024-01-01 01:02:03.123456789' AS ns,
              TIMESTAMP_NS '2024-01-01 01:02:03.123456' AS ns_micros,
              TIMESTAMPTZ '2026-03-05 10:22:13+02' AS tz, [TIMESTAMPTZ '2026-03-05 10:22:13+02'] AS tzs,
              TIMESTAMP_MS '2024-01-01 01:02:03.123' AS ms, TIMESTAMP_S '2024-01-01 01:02:03' AS s,
              TIMESTAMP '1969-12-31 23:59:59.999999' AS before_1970, DATE '2024-01-01' AS d`,
    );
    expect(rows).toEqual([
      {
        l: ["2024-01-01T00:00:00.000Z", null],
        ns: "2024-01-01T01:02:03.123456789Z",
        ns_micros: "2024-01-01T01:02:03.123456Z",
        tz: "2026-03-05T08:22:13.000Z",
        tzs: ["2026-03-05T08:22:13.000Z"],
        ms: "2024-01-01T01:02:03.123Z",
        s: "2024-01-01T01:02:03.000Z",
        before_1970: "1969-12-31T23:59:59.999999Z",
        d: "2024-01-01",
      },
    ]);
  });
});

describe("sql --format json: nested values", () => {
  it("writes structs and maps as objects, a union as its member's value", async () => {
    const rows = await jsonRows(
      `SELECT {'x': 1, 'y': [TIMESTAMP '2024-01-01'], 'z': {'d': 99999999999999.99::DECIMAL(18,2)}} AS s,
              MAP {'a': 1.5::DECIMAL(3,1), 'b': NULL} AS m, MAP {2: 'two', 10: 'ten'} AS n,
              MAP {TIMESTAMP '2024-01-01': true} AS t, union_value(num := 2)::UNION(num INT, str VARCHAR) AS u,
              [{'k': 'v'}] AS l`,
    );
    expect(rows).toEqual([
      {
        s: { x: 1, y: ["2024-01-01T00:00:00.000Z"], z: { d: "99999999999999.99" } },
        m: { a: 1.5, b: null },
        n: { "2": "two", "10": "ten" },
        t: { "2024-01-01T00:00:00.000Z": true },
        u: 2,
        l: [{ k: "v" }],
      },
    ]);
  });
});
