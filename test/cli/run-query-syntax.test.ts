/**
 * `run` reads its reports' queries before the extract: one DuckDB cannot parse is refused before a
 * single request reaches the portal, not after a whole portal was read. In process, against the
 * simulator over real HTTP.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-run-syntax-");
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ users: 20, takesPerUser: 1, seed: 3 });
  await writeFile(join(dir, "key"), "demo-key\n", { mode: 0o600 });
  await writeFile(join(dir, "typo.sql"), "-- title: Typo\nSELEC * FROM take\n");
  await writeFile(join(dir, "two.sql"), "SELECT 1;\nSELECT 2\n");
});

afterAll(async () => {
  await sim.close();
});

describe("run with a query DuckDB cannot parse", () => {
  it.each([
    [
      "typo.sql",
      /^lms-export: SQL error in \.\/typo\.sql:2: Parser Error: syntax error at or near "SELEC"\n/,
    ],
    [
      "two.sql",
      /^lms-export: \.\/two\.sql holds 2 SQL statements; a query file holds exactly one SELECT\n/,
    ],
  ])("%s is refused before any request, and no database is made", async (file, message) => {
    const before = sim.stats.requests;
    const run = await runCli(dir, [
      ...["run", "compliance", `./${file}`, "--base-url", sim.baseUrl, "--allow-http"],
      ...["--api-key-file", "key", "--db", "r.duckdb"],
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(sim.stats.requests).toBe(before);
    expect(existsSync(join(dir, "r.duckdb"))).toBe(false);
  });
});
