/**
 * A path setting starting with "~" is read in the home folder wherever no shell expanded it: a
 * config file, an environment variable set by a service manager, --db=~/…, --config=~/…,
 * --catalog and LMS_CATALOG. It made a folder literally named "~" (or a key file "that does not
 * exist", or a catalog folder "that is not a folder") before. A real CLI process
 * against a real simulated portal, HOME a scratch folder.
 */
import { existsSync, mkdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-home-paths-");
const home = join(dir, "home");
const work = join(dir, "work");
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ users: 5, takesPerUser: 1, apiKey: "home-key" });
  mkdirSync(home);
  mkdirSync(work);
  await writeFile(join(home, "key"), "home-key\n", { mode: 0o600 });
  const config = { baseUrl: sim.baseUrl, apiKeyFile: "~/key", db: "~/from-file.duckdb" };
  await writeFile(join(home, "lms.json"), JSON.stringify(config));
  for (const name of ["cat-a", "cat-b"]) {
    mkdirSync(join(home, name, "queries"), { recursive: true });
    const sql = `-- title: Query of ${name}\n-- description: A query of a catalog in the home folder.\nSELECT 1 AS one\n`;
    await writeFile(join(home, name, "queries", `${name}-query.sql`), sql);
  }
});

afterAll(async () => {
  await sim.close();
});

const env = (more: Record<string, string> = {}) => ({
  HOME: home,
  LMS_LOG_FORMAT: "json",
  LMS_QUIET: "1",
  ...more,
});

describe("~ in a path setting", () => {
  it("in the config file, named by --config=~/…", async () => {
    const run = await runCli(["extract", "--config=~/lms.json", "--only", "grp"], {
      cwd: work,
      env: env(),
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(existsSync(join(home, "from-file.duckdb"))).toBe(true);
    expect(existsSync(join(home, "~"))).toBe(false);
  });

  it("in the environment and in --db=~/…", async () => {
    const run = await runCli(
      ["extract", "--base-url", sim.baseUrl, "--db=~/from-flag.duckdb", "--only", "grp"],
      { cwd: work, env: env({ LMS_API_KEY_FILE: "~/key" }) },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(existsSync(join(home, "from-flag.duckdb"))).toBe(true);
    expect(existsSync(join(work, "~"))).toBe(false);
  });
});

describe("~ in a catalog folder", () => {
  it.each([
    [["list", "--catalog", "~/cat-a", "--catalog=~/cat-b"], {}],
    [["list"], { LMS_CATALOG: `~/cat-a${delimiter}~/cat-b` }],
  ])("%j %j lists the queries of both", async (args, more) => {
    const run = await runCli(args, { cwd: work, env: env(more) });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("cat-a-query  Query of cat-a");
    expect(run.stdout).toContain("cat-b-query  Query of cat-b");
  });
});
