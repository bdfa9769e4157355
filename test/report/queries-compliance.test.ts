/**
 * The compliance query: one row per user and required product, with the roster's names (ROSTER
 * of the fixture; 108 and 109 are not in it). The expected rows were worked out by hand from the records in
 * test/fixtures/lms-dataset.ts, never by running the SQL; comments show the arithmetic where it is
 * not obvious. Today is 2026-03-10.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Cell, openQueryRunner, type QueryRunner } from "./query-runner.js";

let runner: QueryRunner;
const run = (name: string, params?: Record<string, string>) => runner.run(name, params);

beforeAll(async () => {
  runner = await openQueryRunner({ roster: true });
});
afterAll(() => runner.close());

/** The named columns of each row, in the order given. */
function pick(columns: string[], rows: Cell[][], names: string[]): Cell[][] {
  const at = names.map((name) => {
    const index = columns.indexOf(name);
    if (index < 0) throw new Error(`no column ${name}`);
    return index;
  });
  return rows.map((row) => at.map((i) => row[i] ?? null));
}

describe("compliance", () => {
  test("every assigned product: status, overdue days, expiry, names, most urgent first", async () => {
    const { columns, rows } = await run("compliance");
    expect(columns).toEqual([
      "user_id",
      "firstname",
      "lastname",
      "email",
      "groups",
      "product_id",
      "product_title",
      "status",
      "days_overdue",
      "due_date",
      "access_state",
      "access_granted",
      "access_expires",
      "expires_in_days",
      "expiring",
      "certificate",
      "attempts",
      "best_score",
      "completed_at",
      "last_activity",
      "manager_email",
    ]);
    // Nobody in the dataset has a manager: no roster column and no group admin.
    expect(rows.map((row) => row.at(-1))).toEqual(rows.map(() => null));
    // biome-ignore format: a table of expected rows, one per line
    expect(rows.map((row) => row.slice(0, -1))).toEqual([
      // Overdue first, most days first.
      // Completed with 50 where Safety needs 70: failed, so still due since 2025-10-31:
      // Nov 30 + Dec 31 + Jan 31 + Feb 28 + Mar 10 = 130 days.
      [104, "Dee", "Adams", "dee@example.test", "North, Sales", 10, "Safety", "failed", 130, "2025-10-31", "expired", "2025-10-01 00:00:00", "2026-01-01 00:00:00", null, false, true, 1, 50, null, "2025-10-03 10:00:00"],
      // Started, access ran out: due 01-15 + 30 = 02-14, overdue 14 + 10 = 24.
      [106, "Fay", "Moss", "fay@example.test", "Orphan", 10, "Safety", "access expired", 24, "2026-02-14", "expired", "2026-01-15 00:00:00", "2026-03-09 00:00:00", null, false, false, 1, null, null, "2026-02-01 10:00:00"],
      // Inactive access, nothing done: due 01-20 + 30 = 02-19, overdue 9 (Feb) + 10 (Mar) = 19.
      [105, "Eve", "Zane", "eve@example.test", "Support", 10, "Safety", "not started", 19, "2026-02-19", "inactive", "2026-01-20 00:00:00", null, null, false, false, 0, null, null, null],
      // Status active but past its expiry day: expired; due = expiry 03-01, overdue 9.
      [105, "Eve", "Zane", "eve@example.test", "Support", 20, "Privacy", "access expired", 9, "2026-03-01", "expired", "2026-02-25 00:00:00", "2026-03-01 00:00:00", null, false, false, 0, null, null, null],
      // Then by last name, first name: Adams Bob, Baker Cem, Baker Gus, Young Ann, no name.
      // Access to 04-09: 21 + 9 = 30 days left, inside the 30-day window.
      [102, "Bob", "Adams", "bob@example.test", "Sales", 10, "Safety", "completed", 0, "2026-03-03", "active", "2026-02-01 00:00:00", "2026-04-09 12:00:00", 30, true, false, 1, 90, "2026-02-02 11:00:00", "2026-02-02 11:00:00"],
      // No pass mark: the take passes; completed before its access expired; last activity is the later start.
      [102, "Bob", "Adams", "bob@example.test", "Sales", 20, "Privacy", "completed", 0, "2025-12-31", "expired", "2025-12-01 00:00:00", "2026-02-01 00:00:00", null, false, false, 1, 100, "2025-12-02 09:00:00", "2025-12-02 10:00:00"],
      // Access to 04-10: 31 days left, outside the window; certificate "0" is no certificate.
      [103, "Cem", "Baker", "cem@example.test", "North", 10, "Safety", "in progress", 0, "2026-03-22", "active", "2026-02-20 00:00:00", "2026-04-10 00:00:00", 31, false, false, 1, null, null, "2026-03-01 10:00:00"],
      // The expiry (03-15) comes before granted + 30 (03-31): due on 03-15, not yet; 5 days left.
      [103, "Cem", "Baker", "cem@example.test", "North", 20, "Privacy", "not started", 0, "2026-03-15", "active", "2026-03-01 00:00:00", "2026-03-15 00:00:00", 5, true, false, 0, null, null, null],
      // A deleted product; access to 06-01: 21 + 30 + 31 + 1 = 83 days.
      [107, "Gus", "Baker", "gus@example.test", "LoopA", 30, "(product 30, no longer in the portal)", "not started", 0, "2026-03-31", "active", "2026-03-01 00:00:00", "2026-06-01 00:00:00", 83, false, false, 0, null, null, null],
      // due = min(01-01 + 30 = 01-31, 03-10); 80 passes 70 (the 60 was never completed); the
      // access expires today: 0 days left, expiring.
      [101, "Ann", "Young", "ann@example.test", "Company", 10, "Safety", "completed", 0, "2026-01-31", "active", "2026-01-01 09:00:00", "2026-03-10 23:00:00", 0, true, true, 2, 80, "2026-01-06 09:00:00", "2026-01-06 09:00:00"],
      // Active access without an expiry day: never expires.
      [101, "Ann", "Young", "ann@example.test", "Company", 20, "Privacy", "in progress", 0, "2026-04-04", "active", "2026-03-05 00:00:00", null, null, false, true, 1, null, null, "2026-03-06 10:00:00"],
      // Not in the roster: no name, last. A status the spec does not list counts as inactive.
      [108, null, null, null, "LoopB", 10, "Safety", "not started", 0, "2026-03-31", "inactive", "2026-03-01 00:00:00", null, null, false, false, 0, null, null, null],
    ]);
  });

  test("required products for every user: users without access are listed, with no due date", async () => {
    const { columns, rows } = await run("compliance", { product_ids: "20" });
    expect(
      pick(columns, rows, [
        "user_id",
        "lastname",
        "status",
        "access_state",
        "due_date",
        "days_overdue",
      ]),
    ).toEqual([
      [105, "Zane", "access expired", "expired", "2026-03-01", 9],
      [102, "Adams", "completed", "expired", "2025-12-31", 0],
      [104, "Adams", "not started", "none", null, null],
      [103, "Baker", "not started", "active", "2026-03-15", 0],
      [107, "Baker", "not started", "none", null, null],
      [106, "Moss", "not started", "none", null, null],
      [101, "Young", "in progress", "active", "2026-04-04", 0],
      [108, null, "not started", "none", null, null],
      [109, null, "not started", "none", null, null], // known from a take only
    ]);
  });

  test("a group and its subgroups, one product", async () => {
    const { columns, rows } = await run("compliance", { product_ids: "10", group_id: "2" });
    expect(pick(columns, rows, ["user_id", "groups", "status"])).toEqual([
      [104, "North, Sales", "failed"],
      [102, "Sales", "completed"],
      [103, "North", "in progress"],
    ]);
  });

  test("due_days, expiring_days and today move the overdue count and the expiring flag", async () => {
    const { columns, rows } = await run("compliance", {
      due_days: "10",
      today: "2026-03-20",
      expiring_days: "20",
    });
    const wanted = [
      "user_id",
      "product_id",
      "status",
      "access_state",
      "access_granted",
      "access_expires",
      "due_date",
      "days_overdue",
      "expires_in_days",
      "expiring",
    ];
    const picked = pick(columns, rows, wanted);
    // (103, 20): due min(03-01 + 10, 03-15) = 03-11, not started, today 03-20: 9 days overdue;
    // its access expired on 03-15 so it reads "access expired".
    expect(picked.find((r) => r[0] === 103 && r[1] === 20)).toEqual([
      103,
      20,
      "access expired",
      "expired",
      "2026-03-01 00:00:00",
      "2026-03-15 00:00:00",
      "2026-03-11",
      9,
      null,
      false,
    ]);
    // (102, 10): 04-09 is 11 + 9 = 20 days after 03-20: inside a 20-day window; (103, 10) 21 days.
    expect(picked.find((r) => r[0] === 102 && r[1] === 10)?.slice(8)).toEqual([20, true]);
    expect(picked.find((r) => r[0] === 103 && r[1] === 10)?.slice(8)).toEqual([21, false]);
  });
});

describe("compliance with several access records for one person and product", () => {
  test("access_expires is the expiry expires_in_days counts to while one is active", async () => {
    const insert = (values: string) => `INSERT INTO product_access (product_access_id,
      product_access_user_id, product_access_product_id, product_access_status,
      product_access_created_date, product_access_expired_date) VALUES ${values}`;
    const several = await openQueryRunner({
      extra: [
        // 110/20: an active record expiring today, an inactive one running a month longer.
        insert(`(20, 110, 20, 'active', '2026-02-20', '2026-03-10 23:00:00'),
                (21, 110, 20, 'inactive', '2026-02-01', '2026-04-10 00:00:00')`),
        // 110/10: none active: an expired record and a later inactive one.
        insert(`(22, 110, 10, 'expired', '2025-11-01', '2026-01-01 00:00:00'),
                (23, 110, 10, 'inactive', '2025-12-01', '2026-05-01 00:00:00')`),
      ],
    });
    try {
      const { columns, rows } = await several.run("compliance");
      const picked = pick(
        columns,
        rows.filter((row) => row[0] === 110),
        // biome-ignore format: the columns compared, on one line
        ["product_id", "status", "access_state", "access_expires", "expires_in_days", "expiring", "due_date", "days_overdue"],
      );
      // biome-ignore format: a table of expected rows, one per line
      expect(picked).toEqual([
        // Due 2025-11-01 + 30 = 12-01 (before the latest expiry, 05-01): 30 + 31 + 28 + 10 = 99.
        // No active record: the latest expiry of the two.
        [10, "access expired", "expired", "2026-05-01 00:00:00", null, false, "2025-12-01", 99],
        // The active record's expiry, today: 0 days left, expiring. The due date is
        // min(02-01 + 30 = 03-03, that expiry 03-10) = 03-03, 7 days overdue.
        [20, "not started", "active", "2026-03-10 23:00:00", 0, true, "2026-03-03", 7],
      ]);
    } finally {
      several.close();
    }
  });
});

describe("compliance without a roster", () => {
  test("runs, with empty names, ordered by urgency then user id", async () => {
    const bare = await openQueryRunner();
    try {
      const { columns, rows } = await bare.run("compliance", { product_ids: "10" });
      expect(
        pick(columns, rows, ["user_id", "firstname", "lastname", "email", "days_overdue"]),
      ).toEqual([
        [104, null, null, null, 130],
        [106, null, null, null, 24],
        [105, null, null, null, 19],
        [101, null, null, null, 0],
        [102, null, null, null, 0],
        [103, null, null, null, 0],
        [107, null, null, null, null], // no access to product 10: no due date
        [108, null, null, null, 0],
        [109, null, null, null, null],
      ]);
    } finally {
      bare.close();
    }
  });
});

describe("attempts", () => {
  test("names and e-mail from the roster beside user_id; none for a person it lacks", async () => {
    const { columns, rows } = await run("attempts");
    expect(
      pick(columns, rows, ["user_id", "firstname", "lastname", "email", "product_id"]),
    ).toEqual([
      [101, "Ann", "Young", "ann@example.test", 10],
      [101, "Ann", "Young", "ann@example.test", 20],
      [102, "Bob", "Adams", "bob@example.test", 10],
      [102, "Bob", "Adams", "bob@example.test", 20],
      [103, "Cem", "Baker", "cem@example.test", 10],
      [104, "Dee", "Adams", "dee@example.test", 10],
      [106, "Fay", "Moss", "fay@example.test", 10],
      [109, null, null, null, 10],
    ]);
  });
});
