/**
 * A TIMESTAMPTZ inside a list, struct, map, fixed-size array or union is written in UTC in the
 * report's CSV, HTML page and workbook, as one in a column of its own is (csv-utc.test.ts): under
 * TZ=America/New_York they read "07:00:00-05" for an instant of 12:00 UTC. Run as a child process,
 * with TZ set in its environment; the query runs there and still sees its own zone.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runCli } from "../helpers/spawn-cli.js";

let cwd: string;
const NOON = "TIMESTAMPTZ '2026-01-01 12:00:00+00'";

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-nested-utc-"));
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
  await writeFile(
    join(cwd, "nested.sql"),
    [
      "-- title: Nested instants",
      `SELECT [${NOON}, NULL, 'infinity'] AS l, {'t': TIMESTAMPTZ '2026-07-01 12:00:00.5+00', 'x y': 'a'} AS s,`,
      `  MAP {${NOON}: [${NOON}]} AS m, [${NOON}]::TIMESTAMPTZ[1] AS a,`,
      `  union_value(t := ${NOON}) AS u, NULL::TIMESTAMPTZ[] AS n, current_setting('TimeZone') AS zone`,
      "",
    ].join("\n"),
  );
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** The report's files written with TZ set to `zone`, by extension. */
async function reportIn(zone: string): Promise<(ext: string) => string> {
  const out = `out-${zone.replace("/", "-")}`;
  const run = await runCli(["report", "nested.sql", "--format", "csv,html,xlsx", "--out", out], {
    cwd,
    env: { TZ: zone, LMS_DB: join(cwd, "lms.duckdb") },
  });
  expect(run.code, run.stderr).toBe(0);
  const today = new Date().toISOString().slice(0, 10);
  return (ext) => join(cwd, out, `nested-${today}.${ext}`);
}

describe("instants inside lists, structs and maps", () => {
  it("are written in UTC in the CSV, as DuckDB writes them under UTC", async () => {
    const file = await reportIn("America/New_York");
    const lines = (await readFile(file("csv"), "utf8")).split("\r\n");
    expect(lines[0]).toBe("l,s,m,a,u,n,zone");
    expect(lines[1]).toBe(
      [
        `"['2026-01-01 12:00:00+00', NULL, infinity]"`,
        `"{'t': '2026-07-01 12:00:00.5+00', 'x y': a}"`,
        "{'2026-01-01 12:00:00+00'=['2026-01-01 12:00:00+00']}",
        "[2026-01-01 12:00:00+00]",
        "2026-01-01 12:00:00+00",
        "",
        "America/New_York",
      ].join(","),
    );
  });

  it("are written in UTC in the HTML page and the workbook", async () => {
    const file = await reportIn("America/New_York");
    const expected = [
      "[2026-01-01 12:00:00+00, NULL, infinity]",
      "{'t': 2026-07-01 12:00:00.5+00, 'x y': 'a'}",
      "{2026-01-01 12:00:00+00: [2026-01-01 12:00:00+00]}",
      "[2026-01-01 12:00:00+00]",
      "2026-01-01 12:00:00+00",
    ];
    const html = (await readFile(file("html"), "utf8")).replaceAll("&#39;", "'");
    for (const text of expected) expect(html).toContain(`>${text}<`);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file("xlsx"));
    const row = workbook.worksheets[0]?.getRow(2);
    expect([1, 2, 3, 4, 5].map((c) => row?.getCell(c).value)).toEqual(expected);
  });
});
