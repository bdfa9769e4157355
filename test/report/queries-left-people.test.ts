/**
 * People the roster marks as gone (user_status inactive, suspended, a leaver...) are no one's to
 * follow up: the required-products queries leave them out by default, and count them again when
 * excluded_statuses is empty. The access query still counts what they hold: access a leaver keeps
 * is what an officer reviews it for.
 *
 * On the hand-built dataset (test/fixtures/lms-dataset.ts, today 2026-03-10) the twelve pairs are
 * those of queries-compliance-totals.test.ts; 104 ("Inactive") holds 104/10 (failed and
 * overdue), 105 (" Leaver ", white space around it) holds 105/10 and 105/20 (both overdue), and
 * 106 ("active") stays. Left: 9 pairs of 6 people, 3 completed, none failed, 1 overdue (106/10).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner } from "./query-runner.js";

let runner: QueryRunner;

beforeAll(async () => {
  runner = await openQueryRunner({
    roster: true,
    extra: [
      `UPDATE "user" SET user_status = 'Inactive' WHERE user_id = 104`,
      `UPDATE "user" SET user_status = ' Leaver ' WHERE user_id = 105`,
    ],
  });
});
afterAll(() => runner.close());

const EVERYONE = { excluded_statuses: "" };

/** The user ids of a result's rows, from its column `column`, each once, in order. */
function userIds(result: { columns: string[]; rows: unknown[][] }, column: string): unknown[] {
  const at = result.columns.indexOf(column);
  expect(at, column).toBeGreaterThanOrEqual(0);
  return [...new Set(result.rows.map((row) => row[at]))].sort();
}

/** The overall row of compliance-summary as { people, required, completed, failed, overdue }. */
async function overall(params: Record<string, string> = {}) {
  const { columns, rows } = await runner.run("compliance-summary", params);
  const row = rows.find((r) => r[0] === "overall")!;
  const of = (name: string) => row[columns.indexOf(name)];
  const counts = ["people", "required", "completed", "failed", "overdue"];
  return Object.fromEntries(counts.map((name) => [name, of(name)]));
}

describe("people the roster marks as gone", () => {
  test("compliance lists neither 104 nor 105, unless excluded_statuses is empty", async () => {
    const left = await runner.run("compliance");
    const all = await runner.run("compliance", EVERYONE);
    expect(userIds(all, "user_id")).toEqual([101, 102, 103, 104, 105, 106, 107, 108]);
    expect(userIds(left, "user_id")).toEqual([101, 102, 103, 106, 107, 108]);
    const only105 = await runner.run("compliance", { excluded_statuses: "LEAVER" });
    expect(userIds(only105, "user_id")).toEqual([101, 102, 103, 104, 106, 107, 108]);
  });

  test("compliance-summary and the trend's last week count the pairs left", async () => {
    expect(await overall(EVERYONE)).toEqual({
      people: 8,
      required: 12,
      completed: 3,
      failed: 1,
      overdue: 4,
    });
    const left = { people: 6, required: 9, completed: 3, failed: 0, overdue: 1 };
    expect(await overall()).toEqual(left);
    const trend = await runner.run("compliance-trend", { weeks: "1" });
    const at = (name: string) => trend.rows[0]![trend.columns.indexOf(name)];
    expect([at("required"), at("completed"), at("overdue")]).toEqual([9, 3, 1]);
  });

  test("overdue-by-group counts them in no group; access has no such parameter", async () => {
    const total = async (params: Record<string, string>) => {
      const { columns, rows } = await runner.run("overdue-by-group", params);
      const sum = (name: string) =>
        rows.reduce((n, row) => n + Number(row[columns.indexOf(name)]), 0);
      return [sum("required"), sum("overdue")];
    };
    const [required, overdue] = await total(EVERYONE);
    const [requiredLeft, overdueLeft] = await total({});
    expect(requiredLeft).toBeLessThan(required!);
    expect(overdueLeft).toBeLessThan(overdue!);
    const declares = (name: string) =>
      runner.catalog.queries.get(name)?.params.some((p) => p.name === "excluded_statuses");
    expect(declares("overdue-by-group")).toBe(true);
    expect(declares("access")).toBe(false);
  });
});
