/**
 * The config file's `report.params` are defaults shared by many reports: each applies to the
 * queries that declare it and is left out elsewhere, while a `--param` no chosen query declares
 * stays an error (a typo). In-process through main() on a fixture database.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-config-params-");

beforeAll(async () => {
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
  await mkdir(join(cwd, "team", "queries"), { recursive: true });
  await writeFile(
    join(cwd, "team", "queries", "due.sql"),
    "-- title: Due\n-- description: The due_days in use.\n-- param due_days int = 1: Days.\nSELECT $due_days AS due_days\n",
  );
  // The README's own example config: due_days for the compliance queries, and for no other.
  await writeFile(
    join(cwd, "lms-export.config.json"),
    JSON.stringify({ report: { formats: ["csv"], params: { due_days: 30 } } }),
  );
});

const cli = (args: string[]) => runInProcess(args, cwd, { LMS_QUIET: "1" });

describe("report parameters from the config file", () => {
  it("leave out a query that does not declare them", async () => {
    const run = await cli(["report", "access", "--out", "access"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(".csv");
  });

  it("apply to a query that declares them, and --param still wins", async () => {
    const csvOf = async (out: string, extra: string[]) => {
      const run = await cli(["report", "due", "--catalog", "team", "--out", out, ...extra]);
      expect(run.code, run.stderr).toBe(0);
      const file = run.stdout.split("\n").find((line) => line.trim().endsWith(".csv"))!;
      return (await readFile(join(cwd, file.trim()), "utf8")).trim().split(/\r?\n/);
    };
    expect(await csvOf("due-file", [])).toEqual(["due_days", "30"]);
    expect(await csvOf("due-flag", ["--param", "due_days=9"])).toEqual(["due_days", "9"]);
  });

  it("one that no query of the catalog declares is said, with the name it may have meant", async () => {
    const dir = join(cwd, "typo");
    await mkdir(dir, { recursive: true });
    const config = join(dir, "lms-export.config.json");
    await writeFile(
      config,
      JSON.stringify({ report: { formats: ["csv"], params: { due_dayz: 14 } } }),
    );
    const args = ["report", "compliance", "--db", join(cwd, "lms.duckdb"), "--out", "out"];
    const run = await runInProcess(args, dir, { LMS_QUIET: "1", LMS_LOG_FORMAT: "human" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `report parameter due_dayz from ${config} (report.params) is declared by no query of the catalog, so no report uses it; did you mean "due_days"?`,
    );
  });

  it("do not excuse a --param no chosen query declares", async () => {
    const run = await cli(["report", "access", "--param", "due_dayz=3"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^lms-export: unknown parameter due_dayz: .*\n$/);
  });
});
