/**
 * A take the portal itself calls failed (take_status "failed", any case, white space around it)
 * never passes, whatever the pass mark: on a product without one (Privacy, 20) or one gone from
 * the portal (30), the score rule alone made it a pass. Expected rows are worked out by hand from
 * test/fixtures/lms-dataset.ts plus the takes below; today is 2026-03-10.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { trimmedSql } from "../../src/text/white-space.js";
import { openQueryRunner, type QueryRunner } from "./query-runner.js";

let runner: QueryRunner;

const take = (id: number, user: number, product: number, status: string, score: number) =>
  `INSERT INTO take (take_id, take_user_id, take_product_id, take_status, take_score,
                     take_started_date, take_completed_date)
   VALUES (${id}, ${user}, ${product}, ${status}, ${score},
           TIMESTAMP '2026-03-02 09:00:00', TIMESTAMP '2026-03-02 10:00:00')`;

beforeAll(async () => {
  runner = await openQueryRunner({
    extra: [
      // 105 (Support): access 12 to Privacy ended 03-01, so not passing leaves it overdue.
      take(2001, 105, 20, "'failed'", 12),
      // 103 (North): a low score on Privacy, which has no pass mark, and no failed status: passes.
      take(2002, 103, 20, "'completed'", 5),
      // 107 (LoopA): product 30 is gone from the portal, so no pass mark is known either.
      take(2003, 107, 30, "' Failed' || chr(9)", 40),
    ],
  });
});
afterAll(() => runner.close());

/** The value of `column` in the first row where each `match` column holds its value. */
async function cell(
  query: string,
  params: Record<string, string>,
  match: Record<string, string | number | null>,
  column: string,
) {
  const { columns, rows } = await runner.run(query, params);
  const row = rows.find((r) =>
    Object.entries(match).every(([k, v]) => r[columns.indexOf(k)] === v),
  );
  return row?.[columns.indexOf(column)];
}

describe("a take the portal calls failed", () => {
  test("compliance: failed, and overdue once its due date has passed", async () => {
    const privacy = { product_ids: "20" };
    expect(await cell("compliance", privacy, { user_id: 105 }, "status")).toBe("failed");
    // Due on 03-01, the day access 12 ended: 9 days overdue.
    expect(await cell("compliance", privacy, { user_id: 105 }, "days_overdue")).toBe(9);
    expect(await cell("compliance", privacy, { user_id: 103 }, "status")).toBe("completed");
    const gone = { user_id: 107, product_id: 30 };
    expect(await cell("compliance", {}, gone, "status")).toBe("failed");
  });

  test("compliance-summary and compliance-trend: not completed", async () => {
    const params = { product_ids: "20" };
    const { rows } = await runner.run("compliance-summary", params);
    // scope, name, group_id, people, required, completed, failed, overdue: Support is 105 alone.
    expect(rows.find((r) => r[0] === "group" && r[2] === 4)?.slice(3, 8)).toEqual([1, 1, 0, 1, 1]);
    // Everyone in scope (101 to 109) is required Privacy: completed 102 (100 points) and 103.
    const overall = rows.find((r) => r[0] === "overall");
    expect(overall?.slice(3, 7)).toEqual([9, 9, 2, 1]);
    const trend = await runner.run("compliance-trend", { ...params, weeks: "1" });
    expect(trend.rows.map((r) => r[3])).toEqual([2]);
  });

  test("completion: completed but not passed", async () => {
    const all = { group_id: null };
    // Privacy: 101, 102, 103 and 105 enrolled; 102, 103 and 105 completed; 102 and 103 passed.
    const privacy = { product_ids: "20" };
    expect(await cell("completion", privacy, all, "completed_users")).toBe(3);
    expect(await cell("completion", privacy, all, "passed_users")).toBe(2);
    const gone = { product_ids: "30" };
    expect(await cell("completion", gone, all, "completed_users")).toBe(1);
    expect(await cell("completion", gone, all, "passed_users")).toBe(0);
  });

  test("overdue-by-group: not completed, so overdue", async () => {
    const { rows } = await runner.run("overdue-by-group", { product_ids: "20" });
    // group_id, group_name, required, completed, overdue, overdue_share
    expect(rows.find((r) => r[0] === 4)).toEqual([4, "Support", 1, 0, 1, 1]);
    expect(rows.find((r) => r[0] === 3)?.slice(2, 5)).toEqual([2, 1, 0]);
    const gone = await runner.run("overdue-by-group", { product_ids: "30" });
    expect(gone.rows.find((r) => r[0] === 6)?.slice(2, 4)).toEqual([1, 0]);
  });

  test("every query judging passes reads the status with the same SQL", async () => {
    const rule = `lower(${trimmedSql("take_status")}) IS DISTINCT FROM 'failed'`;
    const queries = ["compliance", "compliance-summary", "compliance-trend", "completion"];
    for (const name of [...queries, "overdue-by-group"]) {
      const sql = await readFile(new URL(`../../queries/${name}.sql`, import.meta.url), "utf8");
      expect(sql, name).toContain(`AND ${rule}\n`);
    }
  });
});
