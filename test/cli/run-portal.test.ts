/**
 * `run --portal NAME` extracts that portal of the config file into its own database and writes
 * the reports from it; `run --all-portals` is refused with what to do instead. A real simulated
 * portal over HTTP, in-process through main().
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-run-portal-");
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ users: 5, takesPerUser: 1, apiKey: "acme-key" });
  await writeFile(join(dir, "acme.key"), "acme-key\n", { mode: 0o600 });
  // The README's example report.params as well: a scheduled run of a report without due_days.
  const config = {
    portals: { acme: { baseUrl: sim.baseUrl, apiKeyFile: "acme.key" } },
    report: { params: { due_days: 30 } },
  };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify(config));
});

afterAll(async () => {
  await sim.close();
});

describe("run and the portals of the config file", () => {
  test("run --portal extracts that portal into its own database, then reports from it", async () => {
    const run = await runCli(dir, ["run", "access", "--portal", "acme", "--format", "csv"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, "lms-acme.duckdb"))).toBe(true);
    expect(existsSync(join(dir, "lms.duckdb"))).toBe(false);
    expect(run.stdout).toMatch(/access-\d{4}-\d{2}-\d{2}\.csv/);
  });

  test("run --portal with a name the config file lacks is exit 2", async () => {
    const run = await runCli(dir, ["run", "access", "--portal", "west"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^lms-export: --portal west is not under "portals".*\n$/);
  });

  test("run --all-portals is refused in one line that says what to run instead", async () => {
    const run = await runCli(dir, ["run", "access", "--all-portals"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^lms-export: run does not take --all-portals: .*\n$/);
    expect(run.stderr).toContain("report NAME --all-portals");
    expect(existsSync(join(dir, "lms.duckdb"))).toBe(false);
  });
});
