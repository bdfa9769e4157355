/**
 * `report --all-portals` with a new portal whose first extract failed before storing anything
 * (its key refused: no database file). The others' report is written with a warning naming it, as
 * for a database whose extracts all failed; a missing database the last batch did not try (a
 * mistyped `db`) is still refused, as are all of them missing. Real simulated portals over HTTP,
 * real databases, in-process through main().
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { reportCsvLines, runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-portals-missing-db-");
let sim: RunningSimulator;
const cli = (args: string[]) => runCli(dir, args);
const configFile = join(dir, "lms-export.config.json");

async function writeConfig(southDb?: string): Promise<void> {
  const portals = {
    north: { baseUrl: sim.baseUrl, apiKeyFile: "key" },
    south: { baseUrl: sim.baseUrl, apiKeyFile: "wrong.key", ...(southDb ? { db: southDb } : {}) },
  };
  await writeFile(configFile, JSON.stringify({ portals }));
}

beforeAll(async () => {
  await mkdir(dir, { recursive: true });
  sim = await startSimulator({ users: 10, takesPerUser: 1, seed: 1, apiKey: "k" });
  await writeFile(join(dir, "key"), "k\n", { mode: 0o600 });
  await writeFile(join(dir, "wrong.key"), "not-the-key\n", { mode: 0o600 });
  await writeFile(join(dir, "count.sql"), "SELECT count(*) AS n FROM take\n");
  await writeConfig();
});

afterAll(async () => {
  await sim.close();
});

const warnings = (stderr: string) =>
  stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: string; msg: string })
    .filter((record) => record.level === "warn")
    .map((record) => record.msg);

describe("report --all-portals and a portal with no database", () => {
  test("reports the others with a warning when its batch extract failed before storing", async () => {
    const extract = await cli(["extract", "--all-portals"]);
    expect(extract.code).toBe(1);
    expect(extract.stdout).toMatch(/portal south: failed: .*refused the API key/);
    expect(existsSync(join(dir, "lms-south.duckdb"))).toBe(false);

    const lines = await reportCsvLines(dir, "./count.sql", ["--all-portals", "--out", "a"]);
    expect(lines).toEqual(["portal,n", "north,10"]);
    const report = await cli(["report", "./count.sql", "--all-portals", "--out", "b"]);
    const warned = warnings(report.stderr).filter((w) => w.includes("no database"));
    expect(warned).toEqual([
      expect.stringMatching(
        /^portal south: no database at .*lms-south\.duckdb \(its extract in the batch of .* failed before storing anything\), so its rows are missing from the reports; run "lms-export extract --portal south"/,
      ),
    ]);
    // One portal alone is still refused: there is nothing to report.
    const one = await cli(["report", "./count.sql", "--portal", "south"]);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/lms-south\.duckdb.*(does not exist|not found|no database)/);
  });

  test("refuses a missing database the last batch did not try, or one it finished", async () => {
    await writeConfig("elsewhere/lms-south.duckdb");
    const moved = await cli(["report", "./count.sql", "--all-portals", "--out", "c"]);
    expect(moved.code).toBe(2);
    expect(moved.stderr).toMatch(/portal south: no database at .*elsewhere.*lms-south\.duckdb/);
    expect(existsSync(join(dir, "c"))).toBe(false);

    await writeConfig();
    const record = JSON.parse(await readFile(join(dir, "lms-export.config.batch.json"), "utf8"));
    record.portals.south.state = "done";
    await writeFile(join(dir, "lms-export.config.batch.json"), JSON.stringify(record));
    const deleted = await cli(["report", "./count.sql", "--all-portals", "--out", "d"]);
    expect(deleted.code).toBe(2);
    expect(deleted.stderr).toContain("portal south: no database at");
  });
});
