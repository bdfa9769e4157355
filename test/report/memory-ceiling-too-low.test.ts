/**
 * A --duckdb-memory-limit too low for the work is a failed run said in one line with what to do:
 * the checks that run before any report (the roster's coverage) let DuckDB's own error through as
 * "unexpected error" with its lines of SET advice, and a ceiling too low to open the file at all
 * gave DuckDB's line alone. Over a real database file, in-process through main().
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-memory-too-low-");
const HINT = "DuckDB ran out of its memory ceiling: set LMS_DUCKDB_MEMORY_LIMIT higher";

beforeAll(async () => {
  const db = await openDatabase(join(cwd, "lms.duckdb"));
  try {
    const connection = await db.connect();
    await connection.run(
      `INSERT INTO "user" (user_id, email) SELECT u, 'p' || u || '@example.org' FROM range(1, 20001) t(u)`,
    );
    await connection.run(
      `INSERT INTO user_grp (user_grp_id, user_grp_grp_id, user_grp_user_id)
       SELECT u, 1 + u % 7, u FROM range(1, 20001) t(u)`,
    );
  } finally {
    db.close();
  }
});

test.each([
  [
    ["report", "compliance", "--out", "out", "--duckdb-memory-limit", "2MB"],
    "checking the roster failed: ",
  ],
  [
    ["report", "compliance", "--out", "out", "--duckdb-memory-limit", "1KB"],
    "cannot open database ",
  ],
  [["sql", "SELECT 1", "--duckdb-memory-limit", "1KB"], "cannot open database "],
])("%j fails in one line saying to raise the ceiling", async (args, said) => {
  const run = await runInProcess(args, cwd, {
    LMS_QUIET: "1",
  });
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toContain(`lms-export: ${said}`);
  expect(lines[0]).toContain(HINT);
  expect(lines[0]).not.toContain("unexpected error");
  expect(run.code).toBe(1);
  expect((await readdir(cwd)).filter((f) => f !== "out")).toEqual(["lms.duckdb"]);
  expect(await readdir(join(cwd, "out")).catch(() => [])).toEqual([]);
});
