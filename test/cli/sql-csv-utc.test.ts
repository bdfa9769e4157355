/**
 * `sql --format csv` writes a TIMESTAMPTZ in UTC whatever the machine's time zone, as report CSVs
 * do (test/report/csv-utc.test.ts): it wrote "2026-11-27 03:00:00.5-05" in New York and
 * "09:00:00.5+01" in Paris for one instant. The statement itself still runs in the machine's zone.
 * Run as a child process, with TZ set in its environment.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-sql-csv-utc-");

beforeAll(async () => {
  (await openDatabase(join(dir, "lms.duckdb"))).close();
});

/** What `sql QUERY --format csv` prints with TZ set to `zone`, lines apart; fails on any error. */
async function csvLines(query: string, zone: string): Promise<string[]> {
  const run = await runCli(["sql", query, "--format", "csv", "--db", "lms.duckdb"], {
    cwd: dir,
    env: { TZ: zone },
  });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toBe("");
  return run.stdout.split("\r\n");
}

describe("sql --format csv instants", () => {
  it("are written in UTC under any time zone, as report CSVs write them", async () => {
    const query = `SELECT TIMESTAMPTZ '2026-11-27 08:00:00.5+00' AS at, 'infinity'::TIMESTAMPTZ AS never,
      '-infinity'::TIMESTAMPTZ AS always, NULL::TIMESTAMPTZ AS unknown,
      current_setting('TimeZone') AS zone, '=1' AS formula,
      union_value(s := '=1+2')::UNION(t TIMESTAMPTZ, s VARCHAR) AS u; -- a statement as typed`;
    for (const zone of ["America/New_York", "Europe/Paris"]) {
      expect(await csvLines(query, zone)).toEqual([
        "at,never,always,unknown,zone,formula,u",
        `2026-11-27 08:00:00.5+00,infinity,-infinity,,${zone},'=1,'=1+2`,
        "",
      ]);
    }
  });

  it("keeps columns that share a name, and every other column as it was", async () => {
    const lines = await csvLines(
      "SELECT 1 AS a, TIMESTAMPTZ '2026-01-01 00:00:00+00' AS a, DATE '2026-01-02' AS d",
      "Asia/Tokyo",
    );
    expect(lines).toEqual(["a,a:1,d", "1,2026-01-01 00:00:00+00,2026-01-02", ""]);
  });

  it("writes an instant inside a list, struct or map in UTC too", async () => {
    const noon = "TIMESTAMPTZ '2026-01-01 12:00:00+00'";
    const lines = await csvLines(
      `SELECT [${noon}] AS l, {'t': ${noon}} AS s, MAP {'k': ${noon}} AS m, union_value(t := ${noon}) AS u`,
      "America/New_York",
    );
    expect(lines).toEqual([
      "l,s,m,u",
      "[2026-01-01 12:00:00+00],{'t': 2026-01-01 12:00:00+00},{'k': 2026-01-01 12:00:00+00},2026-01-01 12:00:00+00",
      "",
    ]);
  });
});
