/**
 * `run --portal NAME` extracts that portal of the config file into its own database and writes
 * the reports from it, into a folder of the portal's own; `run --all-portals` is refused with what
 * to do instead. Real simulated portals over HTTP, in-process through main().
 */
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-run-portal-");
let sim: RunningSimulator;
/** A second portal, of other people: its reports differ from acme's. */
let globexSim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ users: 5, takesPerUser: 1, apiKey: "acme-key" });
  globexSim = await startSimulator({ users: 9, takesPerUser: 2, seed: 7, apiKey: "acme-key" });
  await writeFile(join(dir, "acme.key"), "acme-key\n", { mode: 0o600 });
  // The README's example report.params as well: a scheduled run of a report without due_days.
  const config = {
    portals: {
      acme: { baseUrl: sim.baseUrl, apiKeyFile: "acme.key" },
      globex: { baseUrl: globexSim.baseUrl, apiKeyFile: "acme.key" },
    },
    report: { params: { due_days: 30 } },
  };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify(config));
});

afterAll(async () => {
  await sim.close();
  await globexSim.close();
});

/** The one file of `folder` under the test's folder, read as text. */
async function onlyFile(folder: string): Promise<string> {
  const files = await readdir(join(dir, folder));
  expect(files).toHaveLength(1);
  return readFile(join(dir, folder, files[0] ?? ""), "utf8");
}

describe("run and the portals of the config file", () => {
  test("run --portal extracts that portal into its own database, then reports from it", async () => {
    const run = await runCli(dir, ["run", "access", "--portal", "acme", "--format", "csv"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, "lms-acme.duckdb"))).toBe(true);
    expect(existsSync(join(dir, "lms.duckdb"))).toBe(false);
    expect(run.stdout).toMatch(/out\/acme\/access-\d{4}-\d{2}-\d{2}\.csv/);
  });

  test("run once per portal keeps each portal's reports, each as report --db on its database", async () => {
    for (const portal of ["acme", "globex"]) {
      const run = await runCli(dir, ["run", "access", "--portal", portal, "--format", "csv"]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
    }
    const acme = await onlyFile("out/acme");
    const globex = await onlyFile("out/globex");
    expect(acme).not.toBe(globex);
    for (const [portal, written] of [
      ["acme", acme],
      ["globex", globex],
    ] as const) {
      const args = ["report", "access", "--db", `lms-${portal}.duckdb`, "--format", "csv"];
      const report = await runCli(dir, [...args, "--out", `by-db/${portal}`]);
      expect(report.code).toBe(0);
      expect(written).toBe(await onlyFile(`by-db/${portal}`));
    }
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
