/**
 * Parameters naming a roster column (manager_column, by_column). A value naming one column in
 * another spelling (`Manager_Email`, `Department`, the default manager_email for a column imported
 * from "Manager E-mail" as manager_e_mail) is taken as that column, as roster import matches
 * headers, and the run says so. A run warns when the roster has no column the value could mean
 * and the value was given (naming the closest column), or the roster has one that looks like it,
 * since the report then quietly falls back to group admins or drops its per-value rows. A roster
 * without such a column stays quiet.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runReports } from "../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../fixtures/lms-dataset.js";
import { recordingLogger } from "../helpers/recording-logger.js";

const NOW = new Date("2026-03-10T08:00:00Z");

let dir: string;
/** The fixture's roster (a department column, no manager column). */
let plain: TestDatabase;
/** The same roster with its manager column imported from a "Manager E-mail" header. */
let spelt: TestDatabase;
/** The same roster with a manager column of another name: line_manager. */
let other: TestDatabase;

/** The fixture's roster plus a column `column` holding boss@example.test for everyone. */
async function withManagerColumn(column: string): Promise<TestDatabase> {
  const db = await createLmsDatabase({ roster: true });
  const connection = await db.connect();
  await connection.run(`ALTER TABLE "user" ADD COLUMN ${column} VARCHAR`);
  await connection.run(`UPDATE "user" SET ${column} = 'boss@example.test'`);
  return db;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-roster-columns-"));
  plain = await createLmsDatabase({ roster: true });
  spelt = await withManagerColumn("manager_e_mail");
  other = await withManagerColumn("line_manager");
});
afterAll(async () => {
  plain.close();
  spelt.close();
  other.close();
  await rm(dir, { recursive: true, force: true });
});

let runs = 0;

/** Runs `names` as CSV: the log lines about roster-column parameters, and each file's text. */
async function run(
  db: TestDatabase,
  names: string[],
  params: Record<string, string> = {},
): Promise<{ warnings: string[]; notes: string[]; files: string[] }> {
  const lines: string[] = [];
  runs += 1;
  const results = await runReports(db, names, {
    outDir: join(dir, `run-${runs}`),
    formats: ["csv"],
    params,
    now: NOW,
    logger: recordingLogger(lines),
  });
  const files = await Promise.all(
    results.flatMap((r) => r.files).map((file) => readFile(file, "utf8")),
  );
  const about = (level: string) =>
    lines
      .filter((line) => line.startsWith(`${level} `) && line.includes("_column "))
      .map((line) => line.slice(level.length + 1));
  return { warnings: about("warn"), notes: about("info"), files };
}

/** The CSV lines of `text` that hold `value` in a cell of their own. */
function linesWith(text: string, value: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.split(",").includes(value));
}

describe("roster-column parameters", () => {
  test("a manager column given in the header's case is the roster's column", async () => {
    const cased = await withManagerColumn("manager_email");
    try {
      const given = await run(cased, ["compliance"], { manager_column: "Manager_Email" });
      const exact = await run(cased, ["compliance"], { manager_column: "manager_email" });
      expect(given.warnings).toEqual([]);
      expect(given.notes).toEqual([
        "manager_column Manager_Email is taken as the roster's column manager_email",
      ]);
      expect(linesWith(given.files[0] ?? "", "boss@example.test").length).toBeGreaterThan(0);
      expect(given.files).toEqual(exact.files);
    } finally {
      cased.close();
    }
  });

  test("a by_column given in another case totals by the roster's column", async () => {
    const given = await run(plain, ["compliance-summary"], { by_column: "Department" });
    const exact = await run(plain, ["compliance-summary"], { by_column: "department" });
    expect(given.warnings).toEqual([]);
    expect(linesWith(given.files[0] ?? "", "department").length).toBeGreaterThan(0);
    expect(given.files).toEqual(exact.files);
  });

  test("a by_column given as the header import reads into a base column totals by that column", async () => {
    // Roster import reads a "Status" header into user_status: the value a user types is that.
    const given = await run(plain, ["compliance-summary"], { by_column: "Status" });
    const exact = await run(plain, ["compliance-summary"], { by_column: "user_status" });
    expect(given.warnings).toEqual([]);
    expect(given.notes).toEqual(["by_column Status is taken as the roster's column user_status"]);
    expect(linesWith(given.files[0] ?? "", "user_status").length).toBeGreaterThan(0);
    expect(given.files).toEqual(exact.files);
    // "Employment Status" is user_status only in a file without Status: not taken for it here.
    const fallback = await run(plain, ["compliance-summary"], { by_column: "Employment Status" });
    expect(fallback.notes).toEqual([]);
    expect(fallback.warnings[0]).toContain("the roster has no column Employment Status");
  });

  test('the default manager_email is the column a "Manager E-mail" header became', async () => {
    const found = await run(spelt, ["compliance", "team-compliance"]);
    expect(found.warnings).toEqual([]);
    expect(found.notes).toEqual([
      "manager_column manager_email is taken as the roster's column manager_e_mail",
    ]);
    expect(linesWith(found.files[0] ?? "", "boss@example.test").length).toBeGreaterThan(0);
  });

  test("a manager column of another name is named, once for the run", async () => {
    const { warnings } = await run(other, ["compliance", "team-compliance"]);
    expect(warnings).toEqual([
      "manager_column is manager_email, but the roster has no column manager_email (query compliance): each person's managers are the admins of their groups instead; it has line_manager: name the one meant with --param manager_column=line_manager",
    ]);
  });

  test("a mistyped by_column is named with the consequence and the closest column", async () => {
    const { warnings } = await run(plain, ["compliance-summary"], { by_column: "departement" });
    expect(warnings).toEqual([
      "by_column is departement, but the roster has no column departement (query compliance-summary): the summary has no rows per value of it; the closest column it has is department: name it with --param by_column=department",
    ]);
  });

  test("a roster without any manager column, on the defaults, says nothing", async () => {
    const found = await run(plain, ["compliance", "compliance-summary"]);
    expect([...found.warnings, ...found.notes]).toEqual([]);
  });

  test("a column the roster has says nothing", async () => {
    const found = await run(spelt, ["compliance"], { manager_column: "manager_e_mail" });
    expect([...found.warnings, ...found.notes]).toEqual([]);
  });
});
