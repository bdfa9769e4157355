/**
 * A report run without a configured memory ceiling sizes DuckDB's to its largest per-person table
 * (src/report/memory-ceiling.ts) and says so in an info line naming that table and its rows: the
 * figure is one table's rows, not any person's; and never past DuckDB's own default (80% of the
 * memory the process may have), where DuckDB would hold what it should spill and the system kill
 * the process. The ceiling is read back by the report's own query.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
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

/** DuckDB's text of a size ("18.8 GiB", "308.9 MiB") in bytes. */
function bytesOf(shown: string): number {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
  const [value, unit] = shown.split(" ") as [string, string];
  return Number(value) * 1024 ** units.indexOf(unit);
}

/** The ceiling a DuckDB instance on this machine takes when given none, in bytes. */
async function duckdbDefault(): Promise<number> {
  const instance = await DuckDBInstance.create(":memory:");
  try {
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll("SELECT current_setting('memory_limit')");
    connection.closeSync();
    return bytesOf(String(reader.getRows()[0]?.[0]));
  } finally {
    instance.closeSync();
  }
}

test("a table too large for the machine gets DuckDB's own default, not a ceiling past it", async () => {
  const most = await duckdbDefault();
  // Enough access records that 1.3 KB a row asks for more than the machine's DuckDB takes.
  const rows = Math.ceil(most / 1_300) + 1_000_000;
  const instance = await DuckDBInstance.create(join(cwd, "big.duckdb"));
  try {
    const connection = await instance.connect();
    await connection.run(
      `CREATE TABLE product_access AS SELECT i AS product_access_id FROM range(${rows}) t(i)`,
    );
    connection.closeSync();
  } finally {
    instance.closeSync();
  }
  const run = await runInProcess(
    ["report", "ceiling.sql", "--db", "big.duckdb", "--format", "csv", "--out", "big", "--quiet"],
    cwd,
    {},
  );
  expect(run.code, run.stderr).toBe(0);
  const today = new Date().toISOString().slice(0, 10);
  const csv = await readFile(join(cwd, "big", `ceiling-${today}.csv`), "utf8");
  const ceiling = bytesOf(csv.split("\r\n")[1] ?? "");
  expect(ceiling).toBeGreaterThan(256_000_000);
  // DuckDB shows one decimal: the two may differ in that last place only.
  expect(ceiling / most).toBeLessThan(1.01);
});
