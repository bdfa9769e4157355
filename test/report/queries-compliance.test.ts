/**
 * The compliance query: one row per user and required product. The expected rows were worked out by hand from the records in
 * test/fixtures/lms-dataset.ts, never by running the SQL; comments show the arithmetic where it is
 * not obvious. Today is 2026-03-10.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner } from "./query-runner.js";

let runner: QueryRunner;
const run = (name: string, params?: Record<string, string>) => runner.run(name, params);

beforeAll(async () => {
  runner = await openQueryRunner();
});
afterAll(() => runner.close());

describe("compliance", () => {
  // user_id, groups, product_id, title, status, access_state, access_granted, access_expires,
  // due_date, days_overdue, attempts, best_score, completed_at, last_activity
  test("every assigned product: status, overdue days, last activity", async () => {
    const { columns, rows } = await run("compliance");
    expect(columns).toEqual([
      "user_id",
      "groups",
      "product_id",
      "product_title",
      "status",
      "access_state",
      "access_granted",
      "access_expires",
      "due_date",
      "days_overdue",
      "attempts",
      "best_score",
      "completed_at",
      "last_activity",
    ]);
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      // due = min(01-01 + 30 = 01-31, 03-10); completed, so not overdue.
      [101, "Company", 10, "Safety", "completed", "active", "2026-01-01 09:00:00", "2026-03-10 23:00:00", "2026-01-31", 0, 2, 80, "2026-01-06 09:00:00", "2026-01-06 09:00:00"],
      [101, "Company", 20, "Privacy", "in progress", "active", "2026-03-05 00:00:00", null, "2026-04-04", 0, 1, null, null, "2026-03-06 10:00:00"],
      [102, "Sales", 10, "Safety", "completed", "active", "2026-02-01 00:00:00", "2026-04-09 12:00:00", "2026-03-03", 0, 1, 90, "2026-02-02 11:00:00", "2026-02-02 11:00:00"],
      // Completed before its access expired: completed wins; last activity is the later start.
      [102, "Sales", 20, "Privacy", "completed", "expired", "2025-12-01 00:00:00", "2026-02-01 00:00:00", "2025-12-31", 0, 1, 100, "2025-12-02 09:00:00", "2025-12-02 10:00:00"],
      [103, "North", 10, "Safety", "in progress", "active", "2026-02-20 00:00:00", "2026-04-10 00:00:00", "2026-03-22", 0, 1, null, null, "2026-03-01 10:00:00"],
      // The expiry (03-15) comes before granted + 30 (03-31): due on 03-15, not yet.
      [103, "North", 20, "Privacy", "not started", "active", "2026-03-01 00:00:00", "2026-03-15 00:00:00", "2026-03-15", 0, 0, null, null, null],
      [104, "North, Sales", 10, "Safety", "completed", "expired", "2025-10-01 00:00:00", "2026-01-01 00:00:00", "2025-10-31", 0, 1, 50, "2025-10-03 10:00:00", "2025-10-03 10:00:00"],
      // Inactive access, nothing done: due 01-20 + 30 = 02-19, overdue 9 (Feb) + 10 (Mar) = 19.
      [105, "Support", 10, "Safety", "not started", "inactive", "2026-01-20 00:00:00", null, "2026-02-19", 19, 0, null, null, null],
      // Status active but past its expiry day: expired; due = expiry 03-01, overdue 9.
      [105, "Support", 20, "Privacy", "access expired", "expired", "2026-02-25 00:00:00", "2026-03-01 00:00:00", "2026-03-01", 9, 0, null, null, null],
      // Started, access ran out: due 01-15 + 30 = 02-14, overdue 14 + 10 = 24.
      [106, "Orphan", 10, "Safety", "access expired", "expired", "2026-01-15 00:00:00", "2026-03-09 00:00:00", "2026-02-14", 24, 1, null, null, "2026-02-01 10:00:00"],
      [107, "LoopA", 30, null, "not started", "active", "2026-03-01 00:00:00", "2026-06-01 00:00:00", "2026-03-31", 0, 0, null, null, null],
      // A status the spec does not list counts as inactive.
      [108, "LoopB", 10, "Safety", "not started", "inactive", "2026-03-01 00:00:00", null, "2026-03-31", 0, 0, null, null, null],
    ]);
  });

  test("required products for every user: users without access are listed, with no due date", async () => {
    const { rows } = await run("compliance", { product_ids: "20" });
    expect(rows.map((r) => [r[0], r[4], r[5], r[8], r[9]])).toEqual([
      [101, "in progress", "active", "2026-04-04", 0],
      [102, "completed", "expired", "2025-12-31", 0],
      [103, "not started", "active", "2026-03-15", 0],
      [104, "not started", "none", null, null],
      [105, "access expired", "expired", "2026-03-01", 9],
      [106, "not started", "none", null, null],
      [107, "not started", "none", null, null],
      [108, "not started", "none", null, null],
      [109, "not started", "none", null, null], // known from a take only
    ]);
  });

  test("a group and its subgroups, one product", async () => {
    const { rows } = await run("compliance", { product_ids: "10", group_id: "2" });
    expect(rows.map((r) => [r[0], r[1], r[4]])).toEqual([
      [102, "Sales", "completed"],
      [103, "North", "in progress"],
      [104, "North, Sales", "completed"],
    ]);
  });

  test("due_days and today move the overdue count", async () => {
    const { rows } = await run("compliance", { due_days: "10", today: "2026-03-20" });
    // (103, 20): due min(03-01 + 10, 03-15) = 03-11, not started, today 03-20: 9 days overdue;
    // its access expired on 03-15 so it reads "access expired".
    expect(rows.find((r) => r[0] === 103 && r[2] === 20)?.slice(4, 10)).toEqual([
      "access expired",
      "expired",
      "2026-03-01 00:00:00",
      "2026-03-15 00:00:00",
      "2026-03-11",
      9,
    ]);
  });
});
