/**
 * A past `today` gives that day's figures on every sheet of the weekly report: access records
 * granted after it are left out, takes begun after it too, and a completion after it has not
 * happened yet. The access and completion sheets counted everything there is now beside the
 * compliance sheets' figures of that day. What has no date in the data (statuses, expiry days,
 * group membership, pass marks, the roster) is the current one, and the report's setting says so.
 * Expected rows are worked out by hand from test/fixtures/lms-dataset.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner } from "./query-runner.js";

let runner: QueryRunner;

beforeAll(async () => {
  runner = await openQueryRunner();
});
afterAll(() => runner.close());

describe("today = 2026-02-01", () => {
  const today = "2026-02-01";

  test("access counts the records granted by then, with their current statuses", async () => {
    const { rows } = await runner.run("access", { today });
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      // Records 1 (active), 2 (active, granted on the day itself), 4 (expired), 5 (inactive) and
      // 6 (active); 3 and 10 come later. No active expiry falls from 02-01 to 03-03 or before
      // 02-01; certificates on 1 and 4.
      [10, "Safety", 5, 5, 3, 1, 1, 0, 0, 0, 2],
      // Record 8 (expired); 7, 11 and 12 come later.
      [20, "Privacy", 1, 1, 0, 0, 1, 0, 0, 0, 0],
      // Record 9 (product 30) is granted on 03-01: no row.
    ]);
  });

  test("completion counts access, takes and completions of that day", async () => {
    const { rows } = await runner.run("completion", { today, product_ids: "10" });
    // Enrolled: 101, 102, 104, 105, 106 (records 1, 2, 4, 5, 6); 103 and 109 come later.
    // Active: 101, 102, 106. Started: 101 (1001, 1002), 104 (1005), 106 (1006 begun 02-01);
    // 102's take 1003 begins on 02-02. Completed: 101 (80 on 01-06), 104 (50): 2 of 5.
    // Passed (70): 101 alone.
    expect(rows[0]).toEqual([
      null,
      "(all users)",
      10,
      "Safety",
      5,
      3,
      3,
      2,
      0.4,
      65,
      65,
      70,
      1,
      0.5,
    ]);
  });

  test("a take completed after the day is started, not completed, and has no score", async () => {
    const { rows } = await runner.run("completion", { today: "2026-01-05", product_ids: "10" });
    // Granted by 01-05: 101 (record 1) and 104 (record 4). 101's take 1002 began on 01-05 and
    // completed with 80 on 01-06: started, not completed yet. Completed: 104 (50), failing 70.
    expect(rows[0]).toEqual([null, "(all users)", 10, "Safety", 2, 1, 2, 1, 0.5, 50, 50, 70, 0, 0]);
  });
});

describe("the weekly report", () => {
  test("every query of it takes today, and its setting names what is only as it is now", () => {
    const report = runner.catalog.reports.get("weekly-compliance");
    const queries = (report?.queries ?? []).map((name) => runner.catalog.queries.get(name));
    expect(queries.length).toBe(6);
    for (const query of queries) {
      expect(query?.params.map((p) => p.name)).toContain("today");
    }
    // The settings line shows a parameter as the report's first query describes it.
    const setting = queries[0]?.params.find((p) => p.name === "today")?.description;
    expect(setting).toMatch(
      /access statuses and expiry days, group membership, pass marks and the roster/,
    );
    expect(report?.description).toContain(
      "access statuses and expiry days, group membership, pass marks and the roster are the current ones",
    );
  });
});
