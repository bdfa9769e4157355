/**
 * A catalog folder with a report named like a query (`reports/freshness.json` beside the shipped
 * `queries/freshness.sql`): `report freshness` cannot tell which is meant and says so in one line
 * naming both files; every other report and query of the catalog still runs, the reports using
 * the query `freshness` included. It stopped every report of the catalog. In-process through
 * main(), on a real DuckDB file.
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-same-name-");

/** A report definition of the team's folder over the shipped freshness query. */
const freshnessReport = (title: string) =>
  JSON.stringify({
    title,
    description: "How fresh the data is.",
    queries: ["freshness"],
    formats: ["csv"],
    fileName: `${title.toLowerCase()}-{date}`,
  });

beforeAll(async () => {
  (await createLmsDatabase({ path: join(dir, "lms.duckdb") })).close();
  await mkdir(join(dir, "team", "reports"), { recursive: true });
  await writeFile(join(dir, "team", "reports", "freshness.json"), freshnessReport("Clash"));
  await writeFile(join(dir, "team", "reports", "team-freshness.json"), freshnessReport("Team"));
});

const report = (name: string, out: string) =>
  runCli(dir, ["report", name, "--catalog", "team", "--db", "lms.duckdb", "--out", out]);

describe("a report and a query of one name", () => {
  it("stops the command naming it with one line naming both files", async () => {
    const run = await report("freshness", "out-clash");
    expect(run.code).toBe(2);
    const file = join(dir, "team", "reports", "freshness");
    expect(run.stderr).toBe(
      `lms-export: ${file}.json and queries/freshness.sql are both named freshness, so \`report freshness\` cannot tell the report from the query; rename one of the two files (e.g. ${file}-report.json)\n`,
    );
    expect(await readdir(join(dir, "out-clash")).catch(() => [])).toEqual([]);
  });

  it("leaves the catalog's other reports and queries running, those using the query too", async () => {
    for (const name of ["team-freshness", "data-freshness", "access"]) {
      const run = await report(name, `out-${name}`);
      expect(run.stderr, name).toBe("");
      expect(run.code, name).toBe(0);
      expect((await readdir(join(dir, `out-${name}`))).length, name).toBeGreaterThan(0);
    }
  });

  it("is listed among the definitions that cannot be loaded, not as a query to run", async () => {
    const run = await runCli(dir, ["list", "--catalog", "team"]);
    expect(run.code).toBe(0);
    const [broken, runnable] = run.stdout.split("Reports (lms-export report NAME):");
    expect(broken).toContain(
      `  freshness  (report) ${join(dir, "team", "reports", "freshness.json")}`,
    );
    expect(runnable).not.toMatch(/^ {2}freshness /m);
    expect(runnable).toMatch(/^ {2}team-freshness /m);
    const json = await runCli(dir, ["list", "--catalog", "team", "--json"]);
    const listed = JSON.parse(json.stdout) as Record<string, { name: string }[]>;
    expect(listed.queries?.map((query) => query.name)).not.toContain("freshness");
    expect(listed.broken?.map((definition) => definition.name)).toEqual(["freshness"]);
  });
});
