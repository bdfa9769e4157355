/**
 * An access that never expires is not given a due date by an older record's expiry. Person 1 had a
 * four-day trial of Safety (granted 02-01, expired 02-05), then an access in status active from
 * 02-06 with no expiry day: with due_days 60 the due date is 02-01 + 60 = 04-02, not yet due, and
 * the access has no expiry to show. Person 2 holds an inactive record without an expiry day and an
 * active one that expired on 02-10: an inactive record keeps nothing open, so the due date is
 * 02-10 and the row is 28 days overdue. Today is 2026-03-10; every figure is counted by hand.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { accessRecordsRunner, type QueryRunner } from "./query-runner.js";

let runner: QueryRunner;

const ACCESS = [
  "(1, 1, 10, 'expired', '2026-02-01 00:00:00', '2026-02-05 00:00:00')",
  "(2, 1, 10, 'active', '2026-02-06 00:00:00', NULL)",
  "(3, 2, 10, 'inactive', '2026-02-01 00:00:00', NULL)",
  "(4, 2, 10, 'active', '2026-02-01 00:00:00', '2026-02-10 00:00:00')",
];

beforeAll(async () => {
  runner = await accessRecordsRunner(ACCESS);
});
afterAll(() => runner.close());

const params = { due_days: "60" };

describe("an access in status active without an expiry day never expires", () => {
  test("compliance: no expiry and no due date from the trial's", async () => {
    const { columns, rows } = await runner.run("compliance", params);
    const pick = (row: (typeof rows)[number]) =>
      ["user_id", "status", "days_overdue", "due_date", "access_state", "access_expires"].map(
        (name) => row[columns.indexOf(name)],
      );
    expect(rows.map(pick)).toEqual([
      [2, "access expired", 28, "2026-02-10", "expired", "2026-02-10 00:00:00"],
      [1, "not started", 0, "2026-04-02", "active", null],
    ]);
  });

  // Each query repeats the rule, so each is checked on its own: one overdue row of two.
  test.each<[string, Record<string, string>, unknown[]]>([
    ["compliance-summary", {}, [["overall", "(all users)", null, 2, 2, 0, 0, 1, 0, 0.5]]],
    ["compliance-trend", { weeks: "1" }, [["2026-03-10", 0, 1, 0, 2]]],
    ["overdue-by-group", {}, [[1, "Team", 2, 0, 1, 0.5]]],
  ])("%s counts one overdue", async (name, extra, expected) => {
    const { rows } = await runner.run(name, { ...params, ...extra });
    expect(rows.slice(0, 1)).toEqual(expected);
  });
});
