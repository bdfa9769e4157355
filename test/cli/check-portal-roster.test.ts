/**
 * `check --portal NAME` and `report --portal NAME` on a portal whose database has no roster say
 * how to import one into that database: `roster import` takes no --portal, so the command they
 * show names the portal's database, and run as shown it fills the roster that check then finds. A real simulated portal
 * over HTTP, real DuckDB files, the CLI in this process.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writePeopleCsv } from "../../src/simulator/people-csv.js";
import {
  DEFAULT_API_KEY,
  type RunningSimulator,
  startSimulator,
} from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-check-portal-roster-");

/** A config file of one portal, acme, answered by `sim`, its key in a file beside it. */
async function writeAcmeConfig(sim: RunningSimulator): Promise<void> {
  await writeFile(join(dir, "acme.key"), `${DEFAULT_API_KEY}\n`, { mode: 0o600 });
  const portals = { acme: { baseUrl: sim.baseUrl, apiKeyFile: "acme.key" } };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals }));
}

async function rosterLine(): Promise<string | undefined> {
  const run = await runCli(dir, ["check", "--portal", "acme"]);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout.split("\n").find((line) => /^. roster: /.test(line));
}

describe("check --portal's roster line", () => {
  it("names the portal's database in the import it asks for, which then works", async () => {
    const sim = await startSimulator({ users: 20, takesPerUser: 2, seed: 5 });
    try {
      await writeAcmeConfig(sim);
      await importAsShown(sim);
    } finally {
      await sim.close();
    }
  });
});

/** Extracts acme, then runs the roster import check's line shows and checks its line again. */
async function importAsShown(sim: RunningSimulator): Promise<void> {
  const extract = await runCli(dir, ["extract", "--portal", "acme"]);
  expect(extract.code, extract.stderr).toBe(0);
  const line = await rosterLine();
  const shown = /"lms-export (roster import FILE [^"]*)"/.exec(line ?? "")?.[1];
  expect(shown, line).toBe("roster import FILE --db lms-acme.duckdb");
  const report = await runCli(dir, [
    "report",
    "compliance",
    "--portal",
    "acme",
    "--format",
    "html",
  ]);
  expect(report.code, report.stderr).toBe(0);
  expect(report.stderr).toContain(`lms-export ${shown}`);
  // The page's header, as the workbook's About sheet, tells its reader the same import.
  const page = (await readdir(join(dir, "out", "acme"))).find((name) => name.endsWith(".html"));
  const html = await readFile(join(dir, "out", "acme", page ?? ""), "utf8");
  expect(html).toContain(`import one with &quot;lms-export ${shown}&quot;`);

  await writePeopleCsv(sim.data, join(dir, "people.csv"));
  const args = (shown ?? "").replace("FILE", "people.csv").split(" ");
  const imported = await runCli(dir, args);
  expect(imported.code, imported.stderr).toBe(0);
  expect(await rosterLine()).toMatch(/^✓ roster: 20 people, everyone in the data among them$/);
}
