/**
 * overdue-by-group has one row per group, so without group_id it has only the people linked to a
 * group (its header says `-- people: grouped`), where compliance has everyone in the data. The
 * count of people it left out as gone must be of those: counting everyone told the officer that
 * people were missing from the group rows who had never been in any. On the hand-built dataset
 * with its roster, 104 "Inactive" and 105 "Leaver" are in groups and 109 (a take, no group) is
 * "inactive". Real DuckDB file; the workbook's About sheet read back with ExcelJS.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseQueryHeader } from "../../src/report/query-header.js";
import { runReports } from "../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../fixtures/lms-dataset.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-left-people-grouped-");
let db: TestDatabase;

beforeAll(async () => {
  db = await createLmsDatabase({ roster: true });
  const connection = await db.connect();
  await connection.run(`UPDATE "user" SET user_status = 'Inactive' WHERE user_id = 104`);
  await connection.run(`UPDATE "user" SET user_status = 'Leaver' WHERE user_id = 105`);
  await connection.run(
    `INSERT INTO "user" (user_id, firstname, user_status) VALUES (109, 'Ida', 'inactive')`,
  );
  connection.closeSync();
});
afterAll(() => db?.close());

let runs = 0;

/** Writes `names` as workbooks; answers the log's lines on people left out and the folder. */
async function report(names: string[], params: Record<string, string> = {}) {
  runs += 1;
  const outDir = join(dir, `run-${runs}`);
  const lines: string[] = [];
  await runReports(db, names, {
    outDir,
    formats: ["xlsx"],
    params,
    now: new Date("2026-03-10T08:00:00Z"),
    logger: recordingLogger(lines),
  });
  return { lines: lines.filter((line) => line.includes("marks as gone")), outDir };
}

/** The About sheet's values labelled "People left out as gone" in the workbook of `prefix`. */
async function leftNotes(folder: string, prefix: string): Promise<unknown[]> {
  const file = (await readdir(folder)).find((f) => f.startsWith(prefix) && f.endsWith(".xlsx"));
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(join(folder, file ?? ""));
  const notes: unknown[] = [];
  book.getWorksheet("About")?.eachRow((row) => {
    if (row.getCell(1).value === "People left out as gone") notes.push(row.getCell(2).value);
  });
  return notes;
}

describe("people left out of a query of grouped people", () => {
  test("are those in a group, said apart from everyone's count", async () => {
    const { lines, outDir } = await report(["weekly-compliance"]);
    expect(lines).toEqual([
      "info 3 people of the data the roster marks as gone are left out of compliance-summary, compliance-trend, compliance: inactive 2, leaver 1 (excluded_statuses; --param excluded_statuses= counts them)",
      "info 2 people of the data the roster marks as gone are left out of overdue-by-group (people in a group): inactive 1, leaver 1 (excluded_statuses; --param excluded_statuses= counts them)",
    ]);
    expect(await leftNotes(outDir, "weekly-compliance")).toEqual([
      "3 (inactive 2, leaver 1): the roster marks them as gone, not counted in compliance-summary, compliance-trend, compliance; see Parameter excluded_statuses",
      "2 (inactive 1, leaver 1): the roster marks them as gone, not counted in overdue-by-group; see Parameter excluded_statuses",
    ]);
  });

  test("are one count with everyone's when they are the same people", async () => {
    const { lines } = await report(["compliance", "overdue-by-group"], {
      excluded_statuses: "leaver",
    });
    expect(lines).toEqual([
      "info 1 person of the data the roster marks as gone is left out of compliance, overdue-by-group: leaver 1 (excluded_statuses; --param excluded_statuses= counts them)",
    ]);
  });

  test("are the group's people with a group_id, as for every query", async () => {
    // Sales (2) and North (3) below it hold 102, 103 and 104.
    const { lines } = await report(["compliance", "overdue-by-group"], { group_id: "2" });
    expect(lines).toEqual([
      "info 1 person of the data the roster marks as gone is left out of compliance, overdue-by-group (group_id 2): inactive 1 (excluded_statuses; --param excluded_statuses= counts them)",
    ]);
  });

  test("a people line of words is a note, as it was before the entry existed", () => {
    const header = parseQueryHeader("-- title: T\n-- people: the sales team\nSELECT 1", "q.sql");
    expect(header.people).toBe("everyone");
  });

  test("a people line other than everyone or grouped is refused, naming the line", () => {
    expect(parseQueryHeader("-- title: T\n-- people: grouped\nSELECT 1", "q.sql").people).toBe(
      "grouped",
    );
    expect(() => parseQueryHeader("-- title: T\n-- people: managers\nSELECT 1", "q.sql")).toThrow(
      'q.sql:2: a people line reads "people: everyone" or "people: grouped" (got "people: managers")',
    );
  });
});
