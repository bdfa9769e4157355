/**
 * Catalog queries about the group tree, access records and completion. The expected rows were worked out by hand from the records in
 * test/fixtures/lms-dataset.ts, never by running the SQL; comments show the arithmetic where it is
 * not obvious. Today is 2026-03-10.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner, r6 } from "./query-runner.js";

let runner: QueryRunner;
const run = (name: string, params?: Record<string, string>) => runner.run(name, params);

beforeAll(async () => {
  runner = await openQueryRunner();
});
afterAll(() => runner.close());

describe("group-rollup", () => {
  const columns = [
    "group_id",
    "group_name",
    "parent_id",
    "depth",
    "path",
    "subgroups",
    "direct_users",
    "total_users",
  ];

  test("parents count their subgroups' users once; orphans are top groups; cycles have no path", async () => {
    const { columns: cols, rows } = await run("group-rollup");
    expect(cols).toEqual(columns);
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      [1, "Company", null, 0, "Company", 3, 1, 5], // 101 + Sales{102,104} + North{103,104} + Support{105}
      [2, "Sales", 1, 1, "Company > Sales", 1, 2, 3], // 102, 104 direct; 103 via North; 104 once
      [3, "North", 2, 2, "Company > Sales > North", 0, 2, 2],
      [4, "Support", 1, 1, "Company > Support", 0, 1, 1],
      [5, "Orphan", 99, 0, "Orphan", 0, 1, 1],
      [6, "LoopA", 7, null, null, 1, 1, 2], // 6 <-> 7: each holds the other
      [7, "LoopB", 6, null, null, 1, 1, 2],
    ]);
  });

  test("group_id limits to a subtree", async () => {
    const { rows } = await run("group-rollup", { group_id: "2" });
    expect(rows.map((r) => r[0])).toEqual([2, 3]);
  });
});

describe("access", () => {
  test("counts by status, the expiry window with both ends included, certificates", async () => {
    const { columns, rows } = await run("access");
    expect(columns).toEqual([
      "product_id",
      "product_title",
      "accesses",
      "users",
      "active",
      "inactive",
      "expired",
      "other_status",
      "expiring_soon",
      "active_past_expiry",
      "certificates",
    ]);
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      // expiring 03-10..04-09: #1 (today) and #2 (day 30); #3 (day 31) not; #6 is past (03-09).
      [10, "Safety", 7, 7, 4, 1, 1, 1, 2, 1, 2],
      // #11 (03-15) expiring; #12 active but past (03-01); #7 has no expiry date.
      [20, "Privacy", 4, 4, 3, 0, 1, 0, 1, 1, 1],
      [30, "(product 30, no longer in the portal)", 1, 1, 1, 0, 0, 0, 0, 0, 0], // a deleted product keeps its id
    ]);
  });

  test("a longer window and another day", async () => {
    const long = await run("access", { days: "90" }); // to 2026-06-08
    // biome-ignore format: a table of expected rows, one per line
    expect(long.rows.map((r) => [r[0], r[8]])).toEqual([
      [10, 3],
      [20, 1],
      [30, 1],
    ]);
    const later = await run("access", { today: "2026-04-10", days: "0" }); // only #3 expires that day
    // biome-ignore format: a table of expected rows, one per line
    expect(later.rows.map((r) => [r[0], r[8], r[9]])).toEqual([
      [10, 1, 3],
      [20, 0, 2],
      [30, 0, 0],
    ]);
  });
});

describe("completion", () => {
  // group_id, group_name, product_id, title, enrolled, active, started, completed, completion_rate,
  // avg_score, median_score, min_score, passed, pass_rate
  test("per product for all users, then per group through the tree", async () => {
    const { columns, rows } = await run("completion");
    expect(columns).toEqual([
      "group_id",
      "group_name",
      "product_id",
      "product_title",
      "enrolled_users",
      "active_users",
      "started_users",
      "completed_users",
      "completion_rate",
      "avg_score",
      "median_score",
      "min_score",
      "passed_users",
      "pass_rate",
    ]);
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      // Product 10: enrolled 101-106, 108 (access) + 109 (take only) = 8; completed 101 (80),
      // 102 (90), 104 (50), 109 (75): avg 295/4, median (75+80)/2; passed >= 70: 3 of 4.
      [null, "(all users)", 10, "Safety", 8, 4, 6, 4, 0.5, 73.75, 77.5, 70, 3, 0.75],
      [null, "(all users)", 20, "Privacy", 4, 3, 2, 1, 0.25, 100, 100, null, 1, 1],
      [null, "(all users)", 30, "(product 30, no longer in the portal)", 1, 1, 0, 0, 0, null, null, null, 0, null],
      // Company = 101..105: completed 101 (80), 102 (90), 104 (50).
      [1, "Company", 10, "Safety", 5, 3, 4, 3, 0.6, r6(220 / 3), 80, 70, 2, r6(2 / 3)],
      [1, "Company", 20, "Privacy", 4, 3, 2, 1, 0.25, 100, 100, null, 1, 1],
      // Sales = 102, 104 and North's 103 (104 once).
      [2, "Sales", 10, "Safety", 3, 2, 3, 2, r6(2 / 3), 70, 70, 70, 1, 0.5],
      [2, "Sales", 20, "Privacy", 2, 1, 1, 1, 0.5, 100, 100, null, 1, 1],
      [3, "North", 10, "Safety", 2, 1, 2, 1, 0.5, 50, 50, 70, 0, 0],
      [3, "North", 20, "Privacy", 1, 1, 0, 0, 0, null, null, null, 0, null],
      [4, "Support", 10, "Safety", 1, 0, 0, 0, 0, null, null, 70, 0, null],
      [4, "Support", 20, "Privacy", 1, 1, 0, 0, 0, null, null, null, 0, null],
      [5, "Orphan", 10, "Safety", 1, 1, 1, 0, 0, null, null, 70, 0, null],
      [6, "LoopA", 10, "Safety", 1, 0, 0, 0, 0, null, null, 70, 0, null],
      [6, "LoopA", 30, "(product 30, no longer in the portal)", 1, 1, 0, 0, 0, null, null, null, 0, null],
      [7, "LoopB", 10, "Safety", 1, 0, 0, 0, 0, null, null, 70, 0, null],
      [7, "LoopB", 30, "(product 30, no longer in the portal)", 1, 1, 0, 0, 0, null, null, null, 0, null],
    ]);
  });

  test("group_id and product_ids narrow the rows", async () => {
    const { rows } = await run("completion", { group_id: "2", product_ids: "10" });
    expect(rows.map((r) => [r[0], r[2], r[4], r[7]])).toEqual([
      [2, 10, 3, 2],
      [3, 10, 2, 1],
    ]);
  });
});
