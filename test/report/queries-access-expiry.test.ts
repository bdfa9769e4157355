/**
 * The due date and access_expires of a person holding several access records for one product come
 * from the same records, so a row is never due after its access ends. Before, the due date took
 * the latest expiry of every record while access_expires showed the active record's, and the two
 * disagreed. Today is 2026-03-10, due_days 60; every figure is counted by hand.
 *
 * Person 1: an expired record granted 02-01 running to 04-30, and an active one granted 02-20
 * expiring 03-20. 02-01 + 60 = 04-02 came after the 03-20 shown; now the due date is 03-20, not
 * yet due.
 * Person 2: an active record granted 01-20 that ran out on 03-01, and an expired one running to
 * 04-30. 01-20 + 60 = 03-21, so the row was not yet due and showed an access ending 04-30 though
 * the access held ended 03-01; now both are 03-01, and the row is 9 days overdue.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { accessRecordsRunner, type QueryRunner } from "./query-runner.js";

let runner: QueryRunner;

const ACCESS = [
  "(1, 1, 10, 'expired', '2026-02-01 00:00:00', '2026-04-30 00:00:00')",
  "(2, 1, 10, 'active', '2026-02-20 00:00:00', '2026-03-20 00:00:00')",
  "(3, 2, 10, 'active', '2026-01-20 00:00:00', '2026-03-01 00:00:00')",
  "(4, 2, 10, 'expired', '2026-01-25 00:00:00', '2026-04-30 00:00:00')",
];

beforeAll(async () => {
  runner = await accessRecordsRunner(ACCESS);
});
afterAll(() => runner.close());

const params = { due_days: "60" };

describe("several access records: the due date is never after the access ends", () => {
  test("compliance: due_date and access_expires from the records in status active", async () => {
    const { columns, rows } = await runner.run("compliance", params);
    const pick = (row: (typeof rows)[number]) =>
      // biome-ignore format: the columns compared, on one line
      ["user_id", "status", "access_state", "access_expires", "expires_in_days", "due_date", "days_overdue"].map(
        (name) => row[columns.indexOf(name)],
      );
    // biome-ignore format: a table of expected rows, one per line
    expect(rows.map(pick)).toEqual([
      [2, "access expired", "expired", "2026-03-01 00:00:00", null, "2026-03-01", 9],
      [1, "not started", "active", "2026-03-20 00:00:00", 10, "2026-03-20", 0],
    ]);
    for (const row of rows) {
      const expires = String(row[columns.indexOf("access_expires")]).slice(0, 10);
      expect(String(row[columns.indexOf("due_date")]) <= expires).toBe(true);
    }
  });

  // Each query repeats the rule, so each is checked on its own: person 2 is overdue, person 1 not.
  test.each<[string, Record<string, string>, unknown[]]>([
    ["compliance-summary", {}, [["overall", "(all users)", null, 2, 2, 0, 0, 1, 0, 0.5]]],
    [
      "compliance-trend",
      { weeks: "2" },
      [
        ["2026-03-03", 0, 1, 0, 2],
        ["2026-03-10", 0, 1, 0, 2],
      ],
    ],
    ["overdue-by-group", {}, [[1, "Team", 2, 0, 1, 0.5]]],
  ])("%s counts one overdue", async (name, extra, expected) => {
    const { rows } = await runner.run(name, { ...params, ...extra });
    expect(rows.slice(0, expected.length)).toEqual(expected);
  });
});
