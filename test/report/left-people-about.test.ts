/**
 * The workbook's About sheet and the HTML page of a report whose queries use excluded_statuses
 * say how many people of the data they left out as gone, by status: the run's log said it, but
 * the compliance officer who gets only the file could not tell that the totals were short, nor
 * why. A report that does not use the parameter says nothing; one whose value leaves no one out
 * says "none". On the hand-built dataset with its roster, 104 "Inactive", 105 " Leaver " and 106
 * "SUSPENDED" (3 people of the data), and a roster person the data does not have (not counted);
 * over two portals, each portal's people counted with its own roster and added up. Real DuckDB
 * files; workbooks read back with ExcelJS, pages as text.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runReports } from "../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../fixtures/lms-dataset.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const NOW = new Date("2026-03-10T08:00:00Z");
const LABEL = "People left out as gone";
const dir = tempDirForFile("lms-left-people-about-");
let db: TestDatabase;

/** Gives the people of `statuses` (user id → status) their roster status. */
async function markGone(connection: DuckDBConnection, statuses: [number, string][]) {
  for (const [id, status] of statuses) {
    await connection.run(`UPDATE "user" SET user_status = $1 WHERE user_id = $2`, [status, id]);
  }
}

beforeAll(async () => {
  db = await createLmsDatabase({ roster: true });
  const connection = await db.connect();
  await markGone(connection, [
    [104, "Inactive"],
    [105, " Leaver "],
    [106, "SUSPENDED"],
  ]);
  await connection.run(
    `INSERT INTO "user" (user_id, firstname, user_status) VALUES (900, 'Gone', 'inactive')`,
  );
  connection.closeSync();
});
afterAll(() => db?.close());

/** The file of `folder` whose name starts with `prefix` and ends in `extension`. */
async function written(folder: string, extension: string, prefix = ""): Promise<string> {
  const files = await readdir(folder);
  return join(folder, files.find((f) => f.startsWith(prefix) && f.endsWith(extension)) ?? "");
}

/** The About sheet's lines of the workbook in `folder` (of report `prefix`), label → value. */
async function aboutOf(folder: string, prefix = ""): Promise<Map<string, unknown>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await written(folder, ".xlsx", prefix));
  const lines = new Map<string, unknown>();
  book.getWorksheet("About")?.eachRow((row) => {
    lines.set(String(row.getCell(1).value), row.getCell(2).value);
  });
  return lines;
}

let runs = 0;

/** Writes `names` in one run into a folder of its own; answers the folder. */
async function report(names: string[], params: Record<string, string> = {}, formats = ["xlsx"]) {
  runs += 1;
  const outDir = join(dir, `run-${runs}`);
  await runReports(db, names, {
    outDir,
    formats: formats as ("xlsx" | "html")[],
    params,
    now: NOW,
  });
  return outDir;
}

describe("the people left out as gone, in the files", () => {
  test("a workbook of queries using the parameter counts them; one of no such query has no line", async () => {
    const out = await report(["weekly-compliance", "attempts"]);
    const weekly = await aboutOf(out, "weekly-compliance");
    expect(weekly.get(LABEL)).toBe(
      "3 (inactive 1, leaver 1, suspended 1): the roster marks them as gone, not counted in compliance-summary, compliance-trend, compliance, overdue-by-group; see Parameter excluded_statuses",
    );
    // attempts shows names from the roster, and leaves no one out.
    const attempts = await aboutOf(out, "attempts");
    expect(attempts.has("Roster")).toBe(true);
    expect(attempts.has(LABEL)).toBe(false);
    const leaver = await aboutOf(await report(["compliance"], { excluded_statuses: "leaver" }));
    expect(leaver.get(LABEL)).toBe(
      "1 (leaver 1): the roster marks them as gone, not counted in compliance; see Parameter excluded_statuses",
    );
  });

  test('a value that leaves no one out says "none"', async () => {
    const empty = await aboutOf(await report(["compliance"], { excluded_statuses: "" }));
    expect(empty.get(LABEL)).toBe("none");
    const unused = await aboutOf(await report(["compliance"], { excluded_statuses: "retired" }));
    expect(unused.get(LABEL)).toBe("none");
  });

  test("the HTML page says it beside the roster line", async () => {
    const page = await readFile(
      await written(await report(["compliance"], {}, ["html"]), ".html"),
      "utf8",
    );
    const header = page.slice(0, page.indexOf("<h2"));
    expect(header).toMatch(
      /<p class="meta">Roster: [^<]*<\/p>\n<p class="meta">People left out as gone: 3 \(inactive 1, leaver 1, suspended 1\): the roster marks them as gone, not counted in compliance; see Settings<\/p>/,
    );
  });

  test("over several portals, each portal's people are counted with its roster and added up", async () => {
    const portalsDir = join(dir, "portals");
    await mkdir(portalsDir);
    const gone: Record<string, [number, string][]> = {
      north: [
        [104, "inactive"],
        [105, "leaver"],
      ],
      // 105 is gone in north only: south's roster has them active.
      south: [
        [104, "Inactive"],
        [106, "suspended"],
      ],
    };
    for (const [portal, statuses] of Object.entries(gone)) {
      const one = await createLmsDatabase({
        path: join(portalsDir, `lms-${portal}.duckdb`),
        roster: true,
      });
      await markGone(await one.connect(), statuses);
      one.close();
    }
    const portals = { north: {}, south: {} };
    await writeFile(join(portalsDir, "lms-export.config.json"), JSON.stringify({ portals }));
    const run = await runCli(portalsDir, [
      "report",
      "compliance",
      "--all-portals",
      "--format",
      "xlsx,html",
      "--out",
      "out",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const text =
      "4 (inactive 2, leaver 1, suspended 1): the roster marks them as gone, not counted in compliance";
    const out = join(portalsDir, "out");
    expect((await aboutOf(out)).get(LABEL)).toBe(`${text}; see Parameter excluded_statuses`);
    expect(await readFile(await written(out, ".html"), "utf8")).toContain(`${text}; see Settings`);
  });
});
