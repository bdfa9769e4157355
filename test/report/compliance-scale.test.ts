/**
 * compliance on a portal of 300,000 people: it joins each person's names, groups and managers to
 * their rows before sorting them, which 256 MB does not hold. A run without a configured ceiling
 * sizes DuckDB's to the data (src/load/memory-limit.ts, reportMemoryLimit) and says so; a ceiling
 * the user sets is kept, and too small a one fails in one line saying how to raise it.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const PEOPLE = 300_000;

/** 40 groups with two admins each, every person in one with an access record, a roster. */
const FILL = [
  `INSERT INTO grp (grp_id, grp_name, grp_created_date, grp_updated_date)
   SELECT g, 'Group ' || g, TIMESTAMP '2026-01-01', TIMESTAMP '2026-01-01' FROM range(1, 41) t(g)`,
  `INSERT INTO "user" (user_id, email, firstname, lastname, user_status)
   SELECT u, 'person.' || u || '@example.org', 'First' || (u % 997), 'Last' || (u % 1009),
          CASE WHEN u % 50 = 0 THEN 'inactive' ELSE 'active' END
   FROM range(1, ${PEOPLE + 1}) t(u)`,
  `INSERT INTO user_grp (user_grp_id, user_grp_grp_id, user_grp_user_id, user_grp_group_admin)
   SELECT u, 1 + u % 40, u, CASE WHEN u <= 80 THEN 1 ELSE 0 END FROM range(1, ${PEOPLE + 1}) t(u)`,
  `INSERT INTO product (product_id, product_i18n_title) SELECT p, 'Course ' || p FROM range(1, 11) t(p)`,
  `INSERT INTO product_access (product_access_id, product_access_product_id, product_access_user_id,
     product_access_status, product_access_created_date)
   SELECT u, 1 + u % 10, u, 'active', TIMESTAMP '2026-01-01' FROM range(1, ${PEOPLE + 1}) t(u)`,
];

const cwd = tempDirForFile("lms-compliance-scale-");

beforeAll(async () => {
  const db = await openDatabase(join(cwd, "lms.duckdb"));
  try {
    const connection = await db.connect();
    for (const sql of FILL) await connection.run(sql);
  } finally {
    db.close();
  }
});

const compliance = (out: string, env: Record<string, string> = {}) =>
  runInProcess(["report", "compliance", "--format", "csv", "--out", out], cwd, {
    LMS_LOG_FORMAT: "json",
    ...env,
  });

test("without a configured ceiling, compliance of 300,000 people runs under one sized to them", async () => {
  const { code, stderr } = await compliance("sized");
  expect(code, stderr).toBe(0);
  const sized = stderr
    .split("\n")
    .filter((line) => line.includes("memory ceiling"))
    .map((line) => JSON.parse(line) as { msg: string; memoryLimit: string; rows: number });
  expect(sized).toHaveLength(1);
  // user, user_grp and product_access have a row per person each: the first by name is named.
  expect(sized[0]).toMatchObject({ memoryLimit: "454MB", rows: PEOPLE, table: "product_access" });
  expect(sized[0]?.msg).toBe(
    "DuckDB's memory ceiling is 454MB for the 300,000 rows of table product_access (LMS_DUCKDB_MEMORY_LIMIT sets it)",
  );
  const today = new Date().toISOString().slice(0, 10);
  const csv = await readFile(join(cwd, "sized", `compliance-${today}.csv`), "utf8");
  // A header, and a row for every person the roster does not mark as gone (one in fifty is).
  expect(csv.split("\r\n").filter(Boolean)).toHaveLength(1 + PEOPLE - PEOPLE / 50);
});

test("a ceiling the user sets is kept: 256 MB fails in one line saying how to raise it", async () => {
  const { code, stderr } = await compliance("small", { LMS_DUCKDB_MEMORY_LIMIT: "256MB" });
  expect(code).toBe(1);
  expect(stderr).not.toContain("memory ceiling is");
  expect(stderr.trimEnd().split("\n").at(-1)).toMatch(
    /^lms-export: query failed: queries\/compliance\.sql.*Out of Memory Error.*; DuckDB ran out of its memory ceiling: set LMS_DUCKDB_MEMORY_LIMIT higher \(e\.g\. 1GB\) and run again$/,
  );
});
