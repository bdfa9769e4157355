/**
 * group_id scopes every query of a report that takes it, by compliance.sql's rule: the people
 * linked to the group or any of its subgroups. A report whose settings line says "Only people of
 * this group and its subgroups" had sheets and a chart (overdue-by-group, access) counting every
 * group and everyone. Expected rows are worked out by hand from test/fixtures/lms-dataset.ts;
 * today is 2026-03-10. Sales (2) holds North (3): its people are 102, 103 and 104.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner } from "./query-runner.js";

let runner: QueryRunner;

beforeAll(async () => {
  runner = await openQueryRunner();
});
afterAll(() => runner.close());

const read = (name: string) =>
  readFile(new URL(`../../queries/${name}.sql`, import.meta.url), "utf8");

/** The text of the CTE `name` of `sql`, from its line to the first line that closes it. */
function cte(sql: string, name: string): string | undefined {
  return new RegExp(`^(?:WITH RECURSIVE )?${name}\\b.*?\\n\\)(?=,?$)`, "ms").exec(sql)?.[0];
}

describe("group_id", () => {
  test("every query of a shipped report declares it when one of them does", () => {
    for (const [name, report] of runner.catalog.reports) {
      const declaring = report.queries.filter((q) =>
        runner.catalog.queries.get(q)?.params.some((p) => p.name === "group_id"),
      );
      if (declaring.length > 0) expect(declaring, name).toEqual(report.queries);
    }
  });

  test("the queries take the group tree and the people in scope with compliance.sql's SQL", async () => {
    const compliance = await read("compliance");
    const tree = cte(compliance, "tree");
    const scope = cte(compliance, "scope_users");
    expect(tree).toContain("UNION -- UNION, not UNION ALL");
    expect(scope).toContain("tree.ancestor_id = $group_id");
    const queries = ["compliance-summary", "compliance-trend", "overdue-by-group", "access"];
    for (const name of [...queries, "completion", "group-rollup"]) {
      expect(cte(await read(name), "tree"), name).toBe(tree);
    }
    for (const name of queries.filter((q) => q !== "overdue-by-group")) {
      expect(cte(await read(name), "scope_users"), name).toBe(scope);
    }
    // The people left out as gone (queries-left-people.test.ts) by one rule too; access counts them.
    const left = cte(compliance, "left_people");
    expect(left).toContain("$excluded_statuses");
    for (const name of queries.filter((q) => q !== "access")) {
      expect(cte(await read(name), "left_people"), name).toBe(left);
    }
  });

  test("the queries that name groups name them with one SQL (queries-unnamed-groups.test.ts)", async () => {
    const named = cte(await read("overdue-by-group"), "named");
    expect(named).toContain("(group ' || grp_id || ')'");
    for (const name of ["completion", "compliance-summary"]) {
      expect(cte(await read(name), "named"), name).toBe(named);
    }
  });

  test("overdue-by-group lists the groups of the subtree only, each as without group_id", async () => {
    const all = await runner.run("overdue-by-group");
    const sales = await runner.run("overdue-by-group", { group_id: "2" });
    expect(sales.rows.map((r) => r[0]).sort()).toEqual([2, 3]);
    expect(sales.rows).toEqual(all.rows.filter((r) => r[0] === 2 || r[0] === 3));
    const products = await runner.run("overdue-by-group", { group_id: "3", product_ids: "20" });
    // North's 103 and 104, Privacy each: 103's access is not yet due, 104 has none (no due date).
    expect(products.rows).toEqual([[3, "North", 2, 0, 0, 0]]);
  });

  test("access counts the records of the group's people only", async () => {
    const { rows } = await runner.run("access", { group_id: "2" });
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      // Records 2 (102, active, expires 04-09: in the window), 3 (103, active, 04-10: outside,
      // certificate "0") and 4 (104, expired, certificate "1").
      [10, "Safety", 3, 3, 2, 0, 1, 0, 1, 0, 1],
      // Records 8 (102, expired) and 11 (103, active, expires 03-15).
      [20, "Privacy", 2, 2, 1, 0, 1, 0, 1, 0, 0],
    ]);
    const everyone = await runner.run("access");
    expect(everyone.rows.map((r) => r[2])).toEqual([7, 4, 1]);
  });
});
