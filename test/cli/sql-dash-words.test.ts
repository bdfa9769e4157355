/**
 * A statement to `sql` that starts with a `--` comment, as one pasted from a .sql file does, and
 * a statement after a lone `--`, are run; yargs had read both as flags and asked for a statement.
 * A word that is a flag stays one.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-sql-dash-"));
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const sql = (...args: string[]) => runInProcess(["sql", "--format", "csv", ...args], cwd);

describe("sql statements that start with -", () => {
  it("runs one that opens with a -- comment, with or without a lone -- before it", async () => {
    const statement = "-- how many takes\nSELECT count(*) > 0 AS some FROM take";
    const cases: ReadonlyArray<readonly [readonly string[], string]> = [
      [[statement], "true"],
      [["--", statement], "true"],
      [["--", "SELECT 42 AS some"], "42"],
    ];
    for (const [args, value] of cases) {
      const run = await sql(...args);
      expect(run.stderr, args.join(" ")).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout.trim().split(/\r?\n/)).toEqual(["some", value]);
    }
  });

  it("runs one that opens with a -- comment when flags come before sql", async () => {
    const statement = "-- one\nSELECT 1 AS one";
    const run = await runInProcess(["--format", "csv", "sql", statement], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split(/\r?\n/)).toEqual(["one", "1"]);
  });

  it("keeps a flag a flag: --format=json still prints JSON", async () => {
    const run = await runInProcess(["sql", "--format=json", "SELECT 1 AS one"], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([{ one: 1 }]);
  });
});
