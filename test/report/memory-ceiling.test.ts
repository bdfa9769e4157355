/**
 * A report run without a configured memory ceiling sizes DuckDB's to its largest per-person table
 * (src/report/memory-ceiling.ts) and says so in an info line naming that table and its rows: the
 * figure is one table's rows, not any person's. The ceiling is read back by the report's own query.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

/** A roster past what 256 MB serves (reportMemoryLimit: 64 MB + 1.3 KB a row). */
const PEOPLE = 200_000;
const cwd = tempDirForFile("lms-memory-ceiling-");

beforeAll(async () => {
  const db = await openDatabase(join(cwd, "lms.duckdb"));
  try {
    const connection = await db.connect();
    await connection.run(
      `INSERT INTO "user" (user_id, email) SELECT u, 'p' || u || '@example.org' FROM range(1, ${PEOPLE + 1}) t(u)`,
    );
    await connection.run(
      `INSERT INTO user_grp (user_grp_id, user_grp_grp_id, user_grp_user_id)
       SELECT u, 1, u FROM range(1, 1001) t(u)`,
    );
  } finally {
    db.close();
  }
  await writeFile(
    join(cwd, "ceiling.sql"),
    "-- title: Ceiling\n-- description: The memory ceiling the report runs under.\nSELECT current_setting('memory_limit') AS ceiling\n",
  );
});

test("the line sizing the ceiling names the table whose rows it counted", async () => {
  const run = await runInProcess(
    ["report", "ceiling.sql", "--format", "csv", "--out", "out"],
    cwd,
    {
      LMS_LOG_FORMAT: "json",
    },
  );
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stderr
    .split("\n")
    .filter((line) => line.includes("memory ceiling"))
    .map((line) => JSON.parse(line) as { msg: string });
  expect(lines.map((line) => line.msg)).toEqual([
    "DuckDB's memory ceiling is 324MB for the 200,000 rows of table user (LMS_DUCKDB_MEMORY_LIMIT sets it)",
  ]);
  expect(lines[0]).toMatchObject({ memoryLimit: "324MB", rows: PEOPLE, table: "user" });
  const today = new Date().toISOString().slice(0, 10);
  const csv = await readFile(join(cwd, "out", `ceiling-${today}.csv`), "utf8");
  // DuckDB shows 324 MB in MiB.
  expect(csv).toBe("ceiling\r\n308.9 MiB\r\n");
});
