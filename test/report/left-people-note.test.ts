/**
 * A report run says how many people of the data it left out as gone (roster user_status one of
 * excluded_statuses), by status, once per value of the parameter: a report with fewer people
 * than the portal has must not look like a wrong one. On the hand-built dataset
 * (test/fixtures/lms-dataset.ts) with its roster, 104 "Inactive", 105 " Leaver " and 106
 * "SUSPENDED"; a roster person the data does not have is not counted.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Catalog } from "../../src/report/catalog.js";
import { runReports } from "../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../fixtures/lms-dataset.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { writeTestCatalog } from "../helpers/test-catalog.js";

let dir: string;
let db: TestDatabase;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-left-people-"));
  db = await createLmsDatabase({ roster: true });
  const connection = await db.connect();
  for (const [id, status] of [
    [104, "Inactive"],
    [105, " Leaver "],
    [106, "SUSPENDED"],
  ] as const) {
    await connection.run(`UPDATE "user" SET user_status = '${status}' WHERE user_id = ${id}`);
  }
  await connection.run(
    `INSERT INTO "user" (user_id, firstname, user_status) VALUES (900, 'Gone', 'inactive')`,
  );
  connection.closeSync();
});
afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

let runs = 0;

/** The lines a run of `names` (from `catalog`, else the shipped one) logs about people left out. */
async function leftLines(names: string[], params: Record<string, string> = {}, catalog?: Catalog) {
  const lines: string[] = [];
  runs += 1;
  await runReports(db, names, {
    outDir: join(dir, `run-${runs}`),
    formats: ["csv"],
    params,
    now: new Date("2026-03-10T08:00:00Z"),
    logger: recordingLogger(lines),
    ...(catalog && { catalog }),
  });
  return lines.filter((line) => line.includes("marks as gone"));
}

describe("people left out as gone", () => {
  test("are counted by status, once for the queries that share a value", async () => {
    expect(await leftLines(["compliance", "compliance-summary", "access"])).toEqual([
      "info 3 people of the data the roster marks as gone are left out of compliance, compliance-summary: inactive 1, leaver 1, suspended 1 (excluded_statuses; --param excluded_statuses= counts them)",
    ]);
  });

  test("follow the value given, and nothing is said when no one is left out", async () => {
    expect(await leftLines(["compliance"], { excluded_statuses: "leaver" })).toEqual([
      "info 1 person of the data the roster marks as gone is left out of compliance: leaver 1 (excluded_statuses; --param excluded_statuses= counts them)",
    ]);
    expect(await leftLines(["compliance"], { excluded_statuses: "" })).toEqual([]);
    expect(await leftLines(["access"])).toEqual([]);
  });

  test("are counted in the group the queries are narrowed to", async () => {
    // Sales (2) and North (3) below it hold 102, 103 and 104; 105 (Support) and 106 are elsewhere.
    expect(await leftLines(["compliance", "compliance-summary"], { group_id: "2" })).toEqual([
      "info 1 person of the data the roster marks as gone is left out of compliance, compliance-summary (group_id 2): inactive 1 (excluded_statuses; --param excluded_statuses= counts them)",
    ]);
    // Company (1) holds every group but the orphan's: 106 is not counted.
    expect(await leftLines(["compliance"], { group_id: "1" })).toEqual([
      "info 2 people of the data the roster marks as gone are left out of compliance (group_id 1): inactive 1, leaver 1 (excluded_statuses; --param excluded_statuses= counts them)",
    ]);
    expect(await leftLines(["compliance"], { group_id: "7" })).toEqual([]);
  });

  test("of a query whose group_id is no single group are everyone's, and the report is written", async () => {
    // A query of one's own may take several groups, or a name: the count cannot bind those as
    // the shipped queries' one group, and counts the data's people as it does without group_id.
    const catalog = await writeTestCatalog(
      join(dir, "own"),
      {
        mine: `-- title: Mine
-- description: The people still here, of some groups.
-- param group_id int_list = 2,3: The groups (empty = everyone).
-- param excluded_statuses string_list = inactive,leaver,suspended: Statuses of people gone.
SELECT user_grp_user_id AS user_id, "user".lastname
FROM user_grp LEFT JOIN "user" ON "user".user_id = user_grp_user_id
WHERE len($group_id) = 0 OR list_contains($group_id, user_grp_grp_id)
`,
      },
      {},
    );
    expect(await leftLines(["mine"], {}, catalog)).toEqual([
      "info 3 people of the data the roster marks as gone are left out of mine: inactive 1, leaver 1, suspended 1 (excluded_statuses; --param excluded_statuses= counts them)",
    ]);
  });

  test("are not counted for a query whose excluded_statuses is no list, whose report is written", async () => {
    const catalog = await writeTestCatalog(
      join(dir, "own-status"),
      {
        here: `-- title: Here
-- description: The people whose status is not the one given.
-- param excluded_statuses string = inactive: The status of people gone.
SELECT user_id, lastname FROM "user"
WHERE lower(trim(coalesce(user_status, ''))) IS DISTINCT FROM $excluded_statuses
`,
      },
      {},
    );
    expect(await leftLines(["here"], {}, catalog)).toEqual([]);
  });
});
