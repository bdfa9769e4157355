/**
 * The DuckDB memory ceiling is a setting like the others: from the config file, the environment
 * or --duckdb-memory-limit, it reaches the DuckDB instance a command opens.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-memory-limit-"));
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** The ceiling as DuckDB itself shows it for `size` (it prints MiB, not what was given). */
async function shownFor(size: string): Promise<string> {
  const instance = await DuckDBInstance.create(":memory:", { memory_limit: size });
  const connection = await instance.connect();
  const reader = await connection.runAndReadAll("SELECT current_setting('memory_limit')");
  const shown = String(reader.getRows()[0]?.[0]);
  connection.closeSync();
  instance.closeSync();
  return shown;
}

async function ceilingSeen(args: string[], env: Record<string, string> = {}): Promise<string> {
  const query = "SELECT current_setting('memory_limit') AS m";
  const run = await runInProcess(["sql", query, "--format", "csv", ...args], cwd, env);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return run.stdout.trim().split("\n")[1] ?? "";
}

describe("--duckdb-memory-limit, LMS_DUCKDB_MEMORY_LIMIT, duckdbMemoryLimit", () => {
  it("reaches the database a command opens, flags over environment over file", async () => {
    // sql's own default (the reports' is 256MB: src/load/memory-limit.ts).
    expect(await ceilingSeen([])).toBe(await shownFor("1GB"));
    await writeFile(join(cwd, "lms-export.config.json"), '{ "duckdbMemoryLimit": "300MB" }');
    try {
      expect(await ceilingSeen([])).toBe(await shownFor("300MB"));
      const env = { LMS_DUCKDB_MEMORY_LIMIT: "1500MB" };
      expect(await ceilingSeen([], env)).toBe(await shownFor("1500MB"));
      expect(await ceilingSeen(["--duckdb-memory-limit", "2GB"], env)).toBe(await shownFor("2GB"));
    } finally {
      await rm(join(cwd, "lms-export.config.json"));
    }
  });

  it("sql --help states sql's own default, the ceiling it really uses", async () => {
    const run = await runInProcess(["sql", "--help"], cwd, {});
    const help = run.stdout.replace(/\s+/g, " ");
    expect(help).toContain(
      "DuckDB's memory ceiling, e.g. 1GB (default: 1GB; env LMS_DUCKDB_MEMORY_LIMIT)",
    );
    expect(await ceilingSeen([])).toBe(await shownFor("1GB"));
  });

  it("refuses what is not a size as bad input, naming where it came from", async () => {
    const run = await runInProcess(["sql", "SELECT 1"], cwd, { LMS_DUCKDB_MEMORY_LIMIT: "lots" });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'lms-export: environment variable LMS_DUCKDB_MEMORY_LIMIT must be a size such as 512MB or 2GB (got "lots")\n',
    );
  });
});
