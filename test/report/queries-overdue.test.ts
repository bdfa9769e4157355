/**
 * overdue-by-group agrees with the compliance query: for each group, its users' rows of
 * compliance (whose `groups` lists the group) counted by hand in the test give the same required,
 * completed and overdue figures, with and without product_ids, for another due_days and on a past
 * day.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner, r6 } from "./query-runner.js";

let runner: QueryRunner;

beforeAll(async () => {
  runner = await openQueryRunner();
});
afterAll(() => runner.close());

async function fromCompliance(params: Record<string, string>) {
  const { columns, rows } = await runner.run("compliance", params);
  const at = (name: string) => columns.indexOf(name);
  const groups = await runner.run("group-rollup");
  const byName = new Map<string, { required: number; completed: number; overdue: number }>();
  for (const row of rows) {
    const names = String(row[at("groups")] ?? "")
      .split(", ")
      .filter((n) => n !== "");
    for (const name of names) {
      const figures = byName.get(name) ?? { required: 0, completed: 0, overdue: 0 };
      figures.required++;
      if (row[at("status")] === "completed") figures.completed++;
      if (Number(row[at("days_overdue")] ?? 0) > 0) figures.overdue++;
      byName.set(name, figures);
    }
  }
  const ids = new Map(groups.rows.map((g) => [g[1] as string, g[0] as number]));
  return [...byName]
    .map(([name, f]) => [
      ids.get(name) ?? null,
      name,
      f.required,
      f.completed,
      f.overdue,
      r6(f.overdue / f.required),
    ])
    .sort((a, b) => Number(b[4]) - Number(a[4]) || Number(a[0]) - Number(b[0]));
}

describe("overdue-by-group", () => {
  test.each<Record<string, string>>([
    {},
    { product_ids: "10,20" },
    { due_days: "400" },
    // Before some grants and completions (102/10: granted 02-01, completed 02-02).
    { today: "2026-02-01" },
  ])("matches the compliance rows of each group's users (%j)", async (params) => {
    const { columns, rows } = await runner.run("overdue-by-group", params);
    expect(columns).toEqual([
      "group_id",
      "group_name",
      "required",
      "completed",
      "overdue",
      "overdue_share",
    ]);
    const expected = await fromCompliance(params);
    expect(expected.length).toBeGreaterThan(3);
    expect(rows).toEqual(expected);
  });

  test("says it counts direct members, where compliance-summary's groups count subgroups", async () => {
    const query = runner.catalog.queries.get("overdue-by-group");
    expect(query?.title).toBe("Overdue required products by group (direct members only)");
    expect(query?.description).toContain("a person linked to several groups counts in each");
    expect(Object.fromEntries(query?.labels ?? [])).toEqual({
      group_name: "Group (direct members only)",
      required: "Required items (direct members)",
      completed: "Completed (direct members)",
      overdue: "Overdue (direct members)",
    });
    const chart = runner.catalog.reports
      .get("weekly-compliance")
      ?.charts?.find((c) => c.query === "overdue-by-group");
    expect(chart?.title).toMatch(
      /direct members only \(a person in several groups counts in each\)/,
    );
    // Sales: its own 102 and 104 (2 people, 3 items); the Summary's Sales adds North's 103.
    const { rows } = await runner.run("overdue-by-group");
    expect(rows.find((r) => r[1] === "Sales")?.slice(2, 5)).toEqual([3, 2, 1]);
    const summary = await runner.run("compliance-summary");
    expect(summary.rows.find((r) => r[1] === "Sales")?.slice(4, 6)).toEqual([5, 2]);
  });

  test("some groups are overdue with the defaults", async () => {
    const { rows } = await runner.run("overdue-by-group");
    expect(rows.some((row) => Number(row[4]) > 0)).toBe(true);
  });
});
