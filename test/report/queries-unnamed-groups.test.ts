/**
 * A group whose name is blank is named by its id, and names that differ only in the white
 * space around them count as one name, so each such group gets its id too: two such groups
 * were one chart bar with their figures added up, and "Sales" beside "Sales " were two bars that
 * read alike. On the hand-built dataset (test/fixtures/lms-dataset.ts) LoopA (6) and LoopB (7)
 * get blank names, "" and a space and a tab (107 and 108 are their members) and Support (4) becomes "Sales ".
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner } from "./query-runner.js";

let runner: QueryRunner;

beforeAll(async () => {
  runner = await openQueryRunner({
    extra: [
      "UPDATE grp SET grp_name = CASE grp_id WHEN 6 THEN '' ELSE ' \t' END WHERE grp_id IN (6, 7)",
      "UPDATE grp SET grp_name = 'Sales ' WHERE grp_id = 4",
    ],
  });
});
afterAll(() => runner.close());

/** group_id → group_name of `query`'s rows that have a group. */
async function names(query: string): Promise<Map<unknown, unknown>> {
  const { columns, rows } = await runner.run(query);
  const id = columns.indexOf("group_id");
  // compliance-summary names its rows, groups among them, in `name`.
  const name = columns.indexOf(columns.includes("group_name") ? "group_name" : "name");
  return new Map(rows.filter((r) => r[id] !== null).map((r) => [r[id], r[name]]));
}

describe("groups with a blank name, or with names alike but for white space", () => {
  test("are each named with their id, in every query that names groups", async () => {
    for (const query of ["overdue-by-group", "compliance-summary", "completion"]) {
      const named = await names(query);
      expect(named.get(6), query).toBe("(group 6)");
      expect(named.get(7), query).toBe("(group 7)");
      expect(named.get(2), query).toBe("Sales (group 2)");
      expect(named.get(4), query).toBe("Sales  (group 4)");
      expect(named.get(3), query).toBe("North");
    }
  });

  test("are bars of their own in the overdue chart's categories", async () => {
    const labels = [...(await names("overdue-by-group")).values()];
    expect(new Set(labels).size).toBe(labels.length);
  });
});
