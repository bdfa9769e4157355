/**
 * compliance-summary and compliance-trend on the hand-built dataset (test/fixtures/lms-dataset.ts)
 * with its roster. Every number was counted by hand from the records; today is 2026-03-10.
 *
 * The twelve person-product pairs (every access record's; due = granted + 30 or the expiry):
 * completed 101/10, 102/10, 102/20; failed 104/10 (50 < 70); overdue 104/10, 105/10, 105/20,
 * 106/10; the rest (101/20, 103/10, 103/20, 107/30, 108/10) neither.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner, r6 } from "./query-runner.js";

let runner: QueryRunner;
let bare: QueryRunner;

beforeAll(async () => {
  runner = await openQueryRunner({ roster: true });
  bare = await openQueryRunner();
});
afterAll(() => {
  runner.close();
  bare.close();
});

describe("compliance-summary", () => {
  test("overall, each group with its subgroups, each department", async () => {
    const { columns, rows } = await runner.run("compliance-summary");
    expect(columns).toEqual([
      "scope",
      "name",
      "group_id",
      "people",
      "required",
      "completed",
      "failed",
      "overdue",
      "completion_rate",
      "overdue_rate",
    ]);
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      ["overall", "(all users)", null, 8, 12, 3, 1, 4, 0.25, r6(4 / 12)],
      // Company: its own 101, Sales' 102 and 104, North's 103 (and 104 again), Support's 105.
      ["group", "Company", 1, 5, 9, 3, 1, 3, r6(3 / 9), r6(3 / 9)],
      // The cycle 6 <-> 7: each group holds the other, so both count 107 and 108.
      ["group", "LoopA", 6, 2, 2, 0, 0, 0, 0, 0],
      ["group", "LoopB", 7, 2, 2, 0, 0, 0, 0, 0],
      ["group", "North", 3, 2, 3, 0, 1, 1, 0, r6(1 / 3)],
      ["group", "Orphan", 5, 1, 1, 0, 0, 1, 0, 1],
      // Sales: 102 (two completed), 103 (two open), 104 (failed, overdue).
      ["group", "Sales", 2, 3, 5, 2, 1, 1, 0.4, 0.2],
      ["group", "Support", 4, 1, 2, 0, 0, 2, 0, 1],
      // Ops: 101 (one completed of two), 104 (failed, overdue), 106 (overdue).
      ["department", "Ops", null, 3, 4, 1, 1, 2, 0.25, 0.5],
      ["department", "Sales", null, 3, 5, 2, 0, 0, 0.4, 0],
      // 105 has no department, 108 is not in the roster.
      ["department", "(not set)", null, 2, 3, 0, 0, 2, 0, r6(2 / 3)],
    ]);
  });

  test("by_column naming a column the roster lacks, or no roster: no such rows", async () => {
    const missing = await runner.run("compliance-summary", { by_column: "site" });
    expect(missing.rows.map((r) => r[0])).not.toContain("site");
    expect(missing.rows).toHaveLength(8);
    const none = await bare.run("compliance-summary");
    expect(none.rows.map((r) => r[0])).toEqual(["overall", ...Array(7).fill("group")]);
    expect(none.rows[0]).toEqual([
      "overall",
      "(all users)",
      null,
      8,
      12,
      3,
      1,
      4,
      0.25,
      r6(4 / 12),
    ]);
  });

  test("by_column naming a column no one has a value in: no such rows", async () => {
    const blank = await openQueryRunner({
      roster: true,
      extra: [`UPDATE "user" SET department = NULL`],
    });
    try {
      const { rows } = await blank.run("compliance-summary");
      expect(rows.map((r) => r[0])).toEqual(["overall", ...Array(7).fill("group")]);
    } finally {
      blank.close();
    }
  });

  test("no one in scope: the overall row with zeros, as the trend's row of that day", async () => {
    // Before any access record (the first is granted on 2025-10-01) and any take.
    const params = { today: "2025-06-01" };
    const { rows } = await runner.run("compliance-summary", params);
    expect(rows).toEqual([["overall", "(all users)", null, 0, 0, 0, 0, 0, null, null]]);
    const trend = await runner.run("compliance-trend", { ...params, weeks: "1" });
    expect(trend.rows).toEqual([["2025-06-01", null, 0, 0, 0]]);
    const empty = await runner.run("compliance-summary", { ...params, group_id: "5" });
    expect(empty.rows).toEqual([
      ["overall", "(group Orphan and its subgroups)", null, 0, 0, 0, 0, 0, null, null],
    ]);
  });

  test("by_column may name any roster column, a base one included", async () => {
    const { rows } = await runner.run("compliance-summary", {
      by_column: "lastname",
      group_id: "2",
    });
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      // The overall row covers Sales and its subgroups only, and says so.
      ["overall", "(group Sales and its subgroups)", null, 3, 5, 2, 1, 1, 0.4, 0.2],
      ["group", "North", 3, 2, 3, 0, 1, 1, 0, r6(1 / 3)],
      ["group", "Sales", 2, 3, 5, 2, 1, 1, 0.4, 0.2],
      // Adams: 102 (two completed) and 104 (failed, overdue); Baker: 103.
      ["lastname", "Adams", null, 2, 3, 2, 1, 1, r6(2 / 3), r6(1 / 3)],
      ["lastname", "Baker", null, 1, 2, 0, 0, 0, 0, 0],
    ]);
  });
});

describe("compliance-trend", () => {
  test("three weeks as they stood at each week's end", async () => {
    const { columns, rows } = await runner.run("compliance-trend", { weeks: "3" });
    expect(columns).toEqual(["week", "completion_rate", "overdue", "completed", "required"]);
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      // Access granted by 02-24: records 1-6 and 8. Completed by then: 101/10, 102/10, 102/20.
      // Due before 02-24: 104/10 (2025-10-31), 105/10 (02-19), 106/10 (02-14).
      ["2026-02-24", r6(3 / 7), 3, 3, 7],
      // 03-03 adds 12 (02-25), 9, 10 and 11 (03-01); 105/20 fell due on 03-01.
      ["2026-03-03", r6(3 / 11), 4, 3, 11],
      // Today: all twelve, as in compliance-summary's overall row.
      ["2026-03-10", 0.25, 4, 3, 12],
    ]);
  });

  test("a completion counts from its day only", async () => {
    const { rows } = await runner.run("compliance-trend", { weeks: "1", today: "2026-02-01" });
    // Granted by 02-01: records 1, 2 (02-01 itself), 4, 5, 6, 8. Completed: 101/10 (01-06) and
    // 102/20 (2025-12-02); 102/10 only on 02-02. Overdue: 104/10 alone.
    expect(rows).toEqual([["2026-02-01", r6(2 / 6), 1, 2, 6]]);
  });

  test("required products for everyone count every week", async () => {
    const { rows } = await runner.run("compliance-trend", { weeks: "2", product_ids: "20" });
    // Nine people × Privacy each week. Completed: 102 (2025-12-02). Overdue: 105/20 (due 03-01)
    // in the week to 03-10 only; on 03-03 it was granted already (02-25) and due 03-01 too.
    expect(rows).toEqual([
      ["2026-03-03", r6(1 / 9), 1, 1, 9],
      ["2026-03-10", r6(1 / 9), 1, 1, 9],
    ]);
  });

  test("weeks below 1 is refused before the query runs", async () => {
    await expect(runner.run("compliance-trend", { weeks: "0" })).rejects.toThrow(
      /^out-of-range value "0" for parameter weeks \(int: a whole number from 1 to 520\)/,
    );
  });
});

describe("the three compliance queries agree", () => {
  // Each query file stands alone (readable and runnable on its own), so compliance-summary and
  // compliance-trend repeat compliance's scope and pass rules; this pins them together.
  const cases: Record<string, string>[] = [
    {},
    { product_ids: "10,20" },
    { group_id: "2" },
    { product_ids: "20", group_id: "1", due_days: "10" },
    { today: "2026-04-20", due_days: "60" },
    // Before some grants and completions: 102/10 is granted on 02-01 and completed on 02-02.
    { today: "2026-02-01" },
    { today: "2026-02-01", product_ids: "10,20" },
  ];
  test.each(cases)("with %o", async (params) => {
    const detail = await runner.run("compliance", params);
    const col = (name: string) => detail.columns.indexOf(name);
    const count = (pass: (row: (typeof detail.rows)[number]) => boolean) =>
      detail.rows.filter(pass).length;
    const required = detail.rows.length;
    const completed = count((r) => r[col("status")] === "completed");
    const expected = [
      new Set(detail.rows.map((r) => r[col("user_id")])).size,
      required,
      completed,
      count((r) => r[col("status")] === "failed"),
      count((r) => Number(r[col("days_overdue")] ?? 0) > 0),
    ];
    const summary = await runner.run("compliance-summary", params);
    expect(summary.rows[0]?.slice(3, 8)).toEqual(expected);
    const trend = await runner.run("compliance-trend", { ...params, weeks: "1" });
    const [, ...counts] = trend.rows[0] ?? [];
    expect(counts).toEqual([r6(completed / required), expected[4], completed, required]);
  });
});

describe("a past today: everything as it stood that day", () => {
  test("a completion after today is not done; detail, summary and trend agree", async () => {
    const params = { today: "2026-01-05", due_days: "1" };
    const detail = await runner.run("compliance", params);
    const wanted = [
      "user_id",
      "product_id",
      "status",
      "days_overdue",
      "due_date",
      "attempts",
      "best_score",
      "completed_at",
      "last_activity",
    ];
    const at = wanted.map((name) => detail.columns.indexOf(name));
    // Granted by 01-05: records 1 (01-01), 4 (2025-10-01) and 8 (2025-12-01) only.
    // biome-ignore format: a table of expected rows, one per line
    expect(detail.rows.map((row) => at.map((i) => row[i] ?? null))).toEqual([
      // Due 2025-10-01 + 1; failed on 2025-10-03: 29 + 30 + 31 + 5 = 95 days overdue.
      [104, 10, "failed", 95, "2025-10-02", 1, 50, null, "2025-10-03 10:00:00"],
      // Due 01-01 + 1 = 01-02. Take 1002 began on 01-05 but passed only on 01-06: in progress,
      // 3 days overdue, no score yet.
      [101, 10, "in progress", 3, "2026-01-02", 2, null, null, "2026-01-05 09:00:00"],
      [102, 20, "completed", 0, "2025-12-02", 1, 100, "2025-12-02 09:00:00", "2025-12-02 10:00:00"],
    ]);
    const summary = await runner.run("compliance-summary", params);
    // The overall row counts the same three rows.
    // biome-ignore format: one row
    expect(summary.rows[0]).toEqual(["overall", "(all users)", null, 3, 3, 1, 1, 2, r6(1 / 3), r6(2 / 3)]);
    const trend = await runner.run("compliance-trend", { ...params, weeks: "2" });
    expect(trend.rows.at(-1)).toEqual(["2026-01-05", r6(1 / 3), 2, 1, 3]);
  });
});
