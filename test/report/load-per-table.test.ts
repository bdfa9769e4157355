/**
 * When a report's data was loaded, after `extract --only take`: that run refreshes takes alone,
 * and the groups, links and access records behind "required" and "overdue" are still the full
 * run's. The page said "Data loaded" at the take run's time and the About sheet "Extract run id |
 * 2". Now the data is as old as the oldest last load of the tables the report reads, and each
 * run's tables are given; a report reading takes alone has the take run's time only.
 * Real extracts from the simulator into a real DuckDB file; the page read as text, the workbook
 * with ExcelJS.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { writeTestCatalog } from "../helpers/test-catalog.js";

const KEY = "per-table-key-5d20";
const dir = tempDirForFile("lms-load-per-table-");
const env = { LMS_API_KEY: KEY };
let sim: RunningSimulator;

async function cli(args: string[]): Promise<string> {
  const run = await runCli(dir, args, env);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

/** The one file with `extension` that a report command says it wrote. */
function writtenFile(stdout: string, extension: string): string {
  const line = stdout.split("\n").find((l) => l.trim().endsWith(extension));
  return join(dir, (line ?? "").trim());
}

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 30, takesPerUser: 2, seed: 5 });
  await cli(["extract", "--base-url", sim.baseUrl, "--db", "lms.duckdb"]); // run 1: every table
  await cli(["extract", "--base-url", sim.baseUrl, "--db", "lms.duckdb", "--only", "take"]);
  // The two runs minutes apart, as a morning's full run and a later take-only one are.
  const instance = await DuckDBInstance.create(join(dir, "lms.duckdb"));
  const connection = await instance.connect();
  await connection.run(`UPDATE _runs SET finished_at = CASE run_id
    WHEN 1 THEN TIMESTAMP '2026-11-27 11:32:10' ELSE TIMESTAMP '2026-11-27 11:41:20' END`);
  connection.closeSync();
  instance.closeSync();
  await writeTestCatalog(
    dir,
    {
      "takes-only":
        "-- title: Takes\n-- description: How many takes there are.\nSELECT count(*) AS takes FROM take\n",
    },
    {},
  );
}, 60_000);
afterAll(() => sim.close());

describe("data loaded after extract --only take", () => {
  test("a report of groups, access and takes: the oldest load, and each run's tables", async () => {
    const stdout = await cli([
      ...["report", "weekly-compliance", "--db", "lms.duckdb", "--format", "html,xlsx"],
      ...["--out", "weekly"],
    ]);
    const page = await readFile(writtenFile(stdout, ".html"), "utf8");
    expect(page).toContain("Data loaded: take 2026-11-27 11:41 UTC, others 2026-11-27 11:32 UTC ·");
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(writtenFile(stdout, ".xlsx"));
    const about = new Map<string, unknown>();
    book.getWorksheet("About")?.eachRow((row) => {
      about.set(String(row.getCell(1).value), row.getCell(2).value);
    });
    expect(about.get("Data loaded at (UTC)")).toEqual(new Date("2026-11-27T11:32:10Z"));
    expect(about.get("Extract run id")).toBe(1);
    expect(about.get("Data loaded at (UTC), take")).toEqual(new Date("2026-11-27T11:41:20Z"));
    expect(about.get("Extract run id, take")).toBe(2);
    const others = "grp, user_grp, product_access, product";
    expect(about.get(`Data loaded at (UTC), ${others}`)).toEqual(new Date("2026-11-27T11:32:10Z"));
    expect(about.get(`Extract run id, ${others}`)).toBe(1);
  });

  test("a query of takes alone: the take run's time", async () => {
    const stdout = await cli([
      ...["report", "takes-only", "--db", "lms.duckdb", "--format", "html"],
      ...["--catalog", "catalog", "--out", "takes"],
    ]);
    const page = await readFile(writtenFile(stdout, ".html"), "utf8");
    expect(page).toContain("Data loaded: 2026-11-27 11:41 UTC ·");
  });
});

describe("data loaded when some tables read were never extracted", () => {
  test("an --only take extract into a new database: the other tables are named as never loaded", async () => {
    await cli(["extract", "--base-url", sim.baseUrl, "--db", "takes.duckdb", "--only", "take"]);
    const stdout = await cli([
      ...["report", "weekly-compliance", "--db", "takes.duckdb", "--format", "html,xlsx"],
      ...["--out", "never"],
    ]);
    const page = await readFile(writtenFile(stdout, ".html"), "utf8");
    const never = "grp, user_grp, product_access, product no successful extract recorded";
    expect(page).toMatch(
      new RegExp(`Data loaded: take \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC, ${never} ·`),
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(writtenFile(stdout, ".xlsx"));
    const about = new Map<string, unknown>();
    book.getWorksheet("About")?.eachRow((row) => {
      about.set(String(row.getCell(1).value), row.getCell(2).value);
    });
    expect(about.get("Data loaded at (UTC)")).toBe("no successful extract recorded");
    expect(about.get("Extract run id")).toBe("none");
    expect(about.get("Extract run id, take")).toBe(1);
    expect(about.get("Extract run id, grp, user_grp, product_access, product")).toBe("none");
  });
});
