/**
 * The demo talks to its own simulated portal and writes where its flags say: a config file in the
 * folder and the environment of a real portal (LMS_BASE_URL, LMS_OUT, LMS_DB) change nothing.
 * In-process through main().
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-demo-settings-");

describe("demo", () => {
  it("writes into ./out, whatever the config file and the environment say", async () => {
    writeFileSync(
      join(cwd, "lms-export.config.json"),
      JSON.stringify({ baseUrl: "https://lms.example.com/api-v2", outDir: "real-reports" }),
    );
    const run = await runInProcess(["demo", "--users", "20"], cwd, {
      LMS_QUIET: "1",
      LMS_LOG_FORMAT: "json",
      // A real portal's address over plain http is refused; the demo never uses it.
      LMS_BASE_URL: "http://lms.internal.example/api-v2",
      LMS_OUT: "env-reports",
      LMS_DB: "real.duckdb",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(join(cwd, "out")).length).toBeGreaterThan(0);
    expect(existsSync(join(cwd, "real-reports"))).toBe(false);
    expect(existsSync(join(cwd, "env-reports"))).toBe(false);
    expect(existsSync(join(cwd, "real.duckdb"))).toBe(false);
    expect(existsSync(join(cwd, "lms-demo.duckdb"))).toBe(true);
  }, 120_000);

  it("refuses a --db that holds extracts of a real portal, and changes nothing in it", async () => {
    const path = join(cwd, "real-extracts.duckdb");
    (await createLmsDatabase({ path, roster: true })).close();
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run(
      `UPDATE _runs SET options = '{"baseUrl":"https://lms.example.com/api-v2"}'`,
    );
    connection.closeSync();
    instance.closeSync();
    const before = readFileSync(path);
    const run = await runInProcess(["demo", "--users", "20", "--db", "real-extracts.duckdb"], cwd, {
      LMS_QUIET: "1",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "lms-export: --db real-extracts.duckdb holds extracts of https://lms.example.com/api-v2: the demo would replace its records and its roster with made-up ones; give the demo another --db (default lms-demo.duckdb)\n",
    );
    expect(readFileSync(path).equals(before)).toBe(true);
  }, 120_000);

  it("refuses a --db holding a roster it did not import, extracted or not", async () => {
    writeFileSync(join(cwd, "staff.csv"), "user_id,name\n1,Ada\n");
    const imported = await runInProcess(
      ["roster", "import", "staff.csv", "--db", "people.duckdb"],
      cwd,
      { LMS_QUIET: "1" },
    );
    expect(imported.code, imported.stderr).toBe(0);
    const run = await runInProcess(["demo", "--users", "20", "--db", "people.duckdb"], cwd, {
      LMS_QUIET: "1",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "--db people.duckdb holds the roster imported from staff.csv: the demo would replace",
    );
  }, 120_000);

  it("refuses a real portal's extracts through a tunnel on localhost, which the demo did not make", async () => {
    const path = join(cwd, "tunnel.duckdb");
    (await createLmsDatabase({ path })).close();
    await onFile(path, `UPDATE _runs SET options = '{"baseUrl":"http://localhost:8443/api-v2"}'`);
    const before = readFileSync(path);
    const run = await runInProcess(["demo", "--users", "20", "--db", "tunnel.duckdb"], cwd, {
      LMS_QUIET: "1",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "--db tunnel.duckdb holds extracts of http://localhost:8443/api-v2: the demo would replace",
    );
    expect(readFileSync(path).equals(before)).toBe(true);
  }, 120_000);

  it("marks its own runs, and takes an earlier demo's unmarked database as its own", async () => {
    const env = { LMS_QUIET: "1", LMS_LOG_FORMAT: "json" };
    const args = ["demo", "--users", "20", "--db", "again.duckdb", "--out", "again-out"];
    const first = await runInProcess(args, cwd, env);
    expect(first.code, first.stderr).toBe(0);
    const path = join(cwd, "again.duckdb");
    const marked = await onFile(
      path,
      "SELECT count(*) FILTER (WHERE json_extract_string(options, '$.demo') = 'true') = count(*) FROM _runs",
    );
    expect(marked).toBe(true);
    // As a demo recorded its runs before it marked them: a loopback address, and its roster.
    await onFile(
      path,
      `UPDATE _runs SET options = json_object('baseUrl', json_extract_string(options, '$.baseUrl'))`,
    );
    const second = await runInProcess(args, cwd, env);
    expect(second.code, second.stderr).toBe(0);
  }, 240_000);
});

/** Runs `sql` on the DuckDB file at `path` with DuckDB's own client; answers the first value. */
async function onFile(path: string, sql: string): Promise<unknown> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRows()[0]?.[0];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
