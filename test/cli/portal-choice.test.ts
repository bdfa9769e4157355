/**
 * A config file that lists only portals, and a command run without --portal: check, extract, run
 * and report name the portals and --portal (roster import and sql, which take none, --db), rather
 * than advising LMS_BASE_URL, an API key or an extract that cannot work without an address; a
 * --portal given twice or empty is told it takes one name. In-process through main(); no portal is reached.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-portal-choice-");
const configFile = join(dir, "lms-export.config.json");
const listed = `the config file ${configFile} lists portals acme, globex`;

beforeAll(async () => {
  await writeFile(join(dir, "acme.key"), "acme-key\n", { mode: 0o600 });
  const portals = {
    acme: { baseUrl: "https://acme.example.com/api-v2", apiKeyFile: "acme.key" },
    globex: { baseUrl: "https://globex.example.com/api-v2", apiKeyFile: "acme.key" },
  };
  await writeFile(configFile, JSON.stringify({ portals }));
});

describe("a config file of portals only, without --portal", () => {
  test("roster import does not make a new default database beside the portals'", async () => {
    await writeFile(join(dir, "people.csv"), "user_id,email\n1,ana@example.org\n");
    const run = await runCli(dir, ["roster", "import", "people.csv"]);
    expect(run.stderr).toBe(
      `lms-export: the database lms.duckdb does not exist, and ${configFile} lists portals acme, globex: give the portal's database with --db FILE: --db lms-acme.duckdb for acme, --db lms-globex.duckdb for globex\n`,
    );
    expect(run.code).toBe(2);
    expect(existsSync(join(dir, "lms.duckdb"))).toBe(false);
  });

  test("sql names the portals and --db rather than advising an extract", async () => {
    const run = await runCli(dir, ["sql", "SELECT 1"]);
    expect(run.stderr).toBe(
      `lms-export: the database lms.duckdb does not exist, and ${configFile} lists portals acme, globex: give the portal's database with --db FILE: --db lms-acme.duckdb for acme, --db lms-globex.duckdb for globex\n`,
    );
    expect(run.code).toBe(2);
    expect(existsSync(join(dir, "lms.duckdb"))).toBe(false);
  });

  test("check names the portals in its configuration line", async () => {
    const run = await runCli(dir, ["check"]);
    expect(run.stdout).toBe(
      `✗ configuration: no portal address, and ${listed}: pass --portal NAME or --all-portals\n`,
    );
    expect(run.code).toBe(2);
  });

  test("extract and run name the portals before asking for a key", async () => {
    const extract = await runCli(dir, ["extract"]);
    expect(extract.stderr).toBe(
      `lms-export: no portal address, and ${listed}: pass --portal NAME or --all-portals\n`,
    );
    expect(extract.code).toBe(2);
    // run takes no --all-portals: it is not offered.
    const run = await runCli(dir, ["run", "compliance"]);
    expect(run.stderr).toBe(`lms-export: no portal address, and ${listed}: pass --portal NAME\n`);
    expect(run.code).toBe(2);
  });

  test("report names the portals when the top-level database was never made", async () => {
    const report = await runCli(dir, ["report", "compliance"]);
    expect(report.stderr).toBe(
      `lms-export: database ${join(dir, "lms.duckdb")} does not exist, and ${listed}: pass --portal NAME or --all-portals\n`,
    );
    expect(report.code).not.toBe(0);
    // A database named on the command line was meant as such: the usual message stands.
    const named = await runCli(dir, ["report", "compliance", "--db", "other.duckdb"]);
    expect(named.stderr).toMatch(/other\.duckdb does not exist; run "lms-export extract" first/);
  });

  test("publish names the portals when the top-level database was never made", async () => {
    const publish = await runCli(dir, ["publish", "--lake", "lake"]);
    expect(publish.stderr).toBe(
      `lms-export: database ${join(dir, "lms.duckdb")} does not exist, and ${listed}: pass --portal NAME or --all-portals\n`,
    );
    expect(publish.code).toBe(2);
    expect(existsSync(join(dir, "lake"))).toBe(false);
  });

  test("a repeated --portal takes one name, an empty one needs a name", async () => {
    const twice = await runCli(dir, ["check", "--portal", "acme", "--portal", "globex"]);
    expect(twice.stderr).toBe(
      "lms-export: --portal takes one name, and was given 2 (acme, globex): pass one (or --all-portals for every portal)\n",
    );
    expect(twice.code).toBe(2);
    const empty = await runCli(dir, ["report", "compliance", "--portal", ""]);
    expect(empty.stderr).toBe(
      'lms-export: --portal needs a name, one of the portals under "portals" in the config file: acme, globex (or --all-portals for every portal)\n',
    );
    expect(empty.code).toBe(2);
    // run takes no --all-portals: it is not offered.
    const run = await runCli(dir, ["run", "compliance", "--portal", "acme", "--portal", "globex"]);
    expect(run.stderr).toBe(
      "lms-export: --portal takes one name, and was given 2 (acme, globex): pass one\n",
    );
  });
});
