/**
 * The completion report on a database the size of a 100,000-user portal, under a 256 MB DuckDB
 * memory ceiling (the least a run gives reports): grouping by (group, product) yields hundreds of thousands of rows, and a median
 * kept as an in-memory aggregate per row used to exhaust the ceiling and fail the report.
 * The medians are checked on a sample against quantile_cont over just those groups.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { runInProcess } from "../helpers/in-process-cli.js";

let cwd: string;

/** 4,000 groups in a tree, 100,000 users in 1-2 groups each, 300 products, 2,000,000 takes. */
const FILL = [
  `INSERT INTO grp (grp_id, grp_name, grp_parent_id, grp_created_date, grp_updated_date)
   SELECT i, 'Group ' || i, CASE WHEN i > 10 THEN i // 10 END, TIMESTAMP '2026-01-01', TIMESTAMP '2026-01-01'
   FROM range(1, 4001) t(i)`,
  `INSERT INTO user_grp (user_grp_id, user_grp_grp_id, user_grp_user_id)
   SELECT u * 2 + k, 1 + hash(u, k) % 4000, u
   FROM range(1, 100001) a(u), range(2) b(k) WHERE k = 0 OR u % 2 = 0`,
  `INSERT INTO product (product_id, product_i18n_title, product_min_score)
   SELECT p, 'Course ' || p, CASE WHEN p % 3 > 0 THEN 60 END FROM range(1, 301) t(p)`,
  `INSERT INTO product_access (product_access_id, product_access_product_id, product_access_user_id, product_access_status)
   SELECT u * 3 + k, 1 + hash(u, k, 'access') % 300, u, CASE WHEN k = 2 THEN 'expired' ELSE 'active' END
   FROM range(1, 100001) a(u), range(3) b(k)`,
  `INSERT INTO take (take_id, take_product_id, take_user_id, take_score, take_completed_date)
   SELECT u * 20 + k, 1 + hash(u, k % 8, 'take') % 300, u, hash(u, k, 'score') % 101,
          CASE WHEN (u + k) % 4 > 0 THEN TIMESTAMP '2026-02-01' END
   FROM range(1, 100001) a(u), range(20) b(k)`,
];

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-completion-scale-"));
  const db = await openDatabase(join(cwd, "lms.duckdb"));
  const connection = await db.connect();
  for (const sql of FILL) await connection.run(sql);
  db.close();
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const report = (args: string[], env: Record<string, string> = {}) =>
  runInProcess(["report", ...args], cwd, env);

test("completion of a 100k-user portal fits the 256 MB memory ceiling, medians exact", async () => {
  // Named, as a run would size the ceiling to this data's 300,000 access records without it.
  const { code, stderr } = await report(
    ["completion", "--format", "parquet", "--out", "out", "--quiet"],
    { LMS_DUCKDB_MEMORY_LIMIT: "256MB" },
  );
  expect(stderr).toBe("");
  expect(code).toBe(0);

  const instance = await DuckDBInstance.create(join(cwd, "lms.duckdb"), {
    access_mode: "READ_ONLY",
  });
  const connection = await instance.connect();
  await connection.run(
    `CREATE TEMP VIEW report AS SELECT * FROM read_parquet('${join(cwd, "out", "completion-*.parquet")}')`,
  );
  const rows = await connection.runAndReadAll(
    "SELECT count(*), count(*) FILTER (WHERE group_id IS NULL), count(median_score) FROM report",
  );
  const [total, allUsers, withMedian] = (rows.getRows()[0] ?? []).map(Number);
  expect(total).toBeGreaterThan(300_000);
  expect(allUsers).toBe(300);
  expect(withMedian).toBeGreaterThan(300_000);

  // The sample: the all-users rows and three groups (a root, a middle and a leaf of the tree),
  // each with its subgroups' users, computed straight from the tables with quantile_cont.
  const expected = await connection.runAndReadAll(`
    WITH RECURSIVE tree(ancestor_id, descendant_id) AS (
      SELECT grp_id, grp_id FROM grp WHERE grp_id IN (3, 42, 3999)
      UNION SELECT tree.ancestor_id, grp.grp_id FROM tree JOIN grp ON grp.grp_parent_id = tree.descendant_id
    ),
    best AS (
      SELECT take_user_id AS user_id, take_product_id AS product_id, max(take_score) AS score
      FROM take WHERE take_completed_date IS NOT NULL GROUP BY ALL
    ),
    sample AS (
      SELECT NULL::BIGINT AS group_id, product_id, score FROM best
      UNION ALL
      SELECT members.group_id, best.product_id, best.score
      FROM (SELECT DISTINCT tree.ancestor_id AS group_id, user_grp_user_id AS user_id
            FROM tree JOIN user_grp ON user_grp_grp_id = tree.descendant_id) members
      JOIN best USING (user_id)
    )
    SELECT group_id, product_id, quantile_cont(score::DOUBLE, 0.5) AS median
    FROM sample GROUP BY ALL ORDER BY group_id NULLS FIRST, product_id`);
  const actual = await connection.runAndReadAll(`
    SELECT group_id, product_id, median_score FROM report
    WHERE (group_id IS NULL OR group_id IN (3, 42, 3999)) AND median_score IS NOT NULL
    ORDER BY group_id NULLS FIRST, product_id`);
  const sample = expected.getRows().map((row) => row.map(String));
  expect(sample.length).toBeGreaterThan(400);
  expect(actual.getRows().map((row) => row.map(String))).toEqual(sample);
  connection.closeSync();
  instance.closeSync();
});

test("a query that outgrows DuckDB's memory ceiling fails in one line that says how to raise it", async () => {
  const { code, stderr } = await report(["completion", "--format", "csv", "--out", "small"], {
    LMS_DUCKDB_MEMORY_LIMIT: "16MB",
  });
  expect(code).toBe(1);
  expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(stderr).toMatch(
    /^lms-export: query failed: queries\/completion\.sql.*Out of Memory Error.*; DuckDB ran out of its memory ceiling: set LMS_DUCKDB_MEMORY_LIMIT higher \(e\.g\. 1GB\) and run again\n$/,
  );
});
