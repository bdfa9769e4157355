/**
 * Parameters naming a roster column (manager_column, by_column): a run warns when the roster has
 * no column of that name and the value was given, or the roster has one that looks like it (an
 * HR file's "Manager E-mail" is imported as manager_e_mail), since the report then quietly falls
 * back to group admins or drops its per-value rows. A roster without such a column stays quiet.
 */
import { mkdtemp, rm } from "node:fs/promises";
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

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-roster-columns-"));
  plain = await createLmsDatabase({ roster: true });
  spelt = await createLmsDatabase({ roster: true });
  const connection = await spelt.connect();
  await connection.run(`ALTER TABLE "user" ADD COLUMN manager_e_mail VARCHAR`);
  await connection.run(`UPDATE "user" SET manager_e_mail = 'boss@example.test'`);
});
afterAll(async () => {
  plain.close();
  spelt.close();
  await rm(dir, { recursive: true, force: true });
});

/** The run's warnings about roster-column parameters. */
async function warningsOf(
  db: TestDatabase,
  names: string[],
  params: Record<string, string> = {},
): Promise<string[]> {
  const lines: string[] = [];
  await runReports(db, names, {
    outDir: join(dir, `${names.join("-")}-${Object.values(params).join("-")}`),
    formats: ["csv"],
    params,
    now: NOW,
    logger: recordingLogger(lines),
  });
  return lines
    .filter((line) => line.includes("_column is"))
    .map((line) => line.replace(/^warn /, ""));
}

describe("roster-column parameters", () => {
  test("a manager column imported under another name is named, once for the run", async () => {
    const warnings = await warningsOf(spelt, ["compliance", "team-compliance"]);
    expect(warnings).toEqual([
      "manager_column is manager_email, but the roster has no column manager_email (query compliance): each person's managers are the admins of their groups instead; it has manager_e_mail: name the one meant with --param manager_column=manager_e_mail",
    ]);
  });

  test("a mistyped by_column is named with the consequence", async () => {
    const warnings = await warningsOf(plain, ["compliance-summary"], { by_column: "departement" });
    expect(warnings).toEqual([
      "by_column is departement, but the roster has no column departement (query compliance-summary): the summary has no rows per value of it",
    ]);
  });

  test("a roster without any manager column, on the defaults, says nothing", async () => {
    expect(await warningsOf(plain, ["compliance", "compliance-summary"])).toEqual([]);
  });

  test("a column the roster has says nothing", async () => {
    expect(await warningsOf(spelt, ["compliance"], { manager_column: "manager_e_mail" })).toEqual(
      [],
    );
  });
});
