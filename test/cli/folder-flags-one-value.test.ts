/**
 * `--catalog DIR` and `--allow-file-access DIR` take one folder each (repeat the flag for more): as
 * list flags they took every word after them, so `report --catalog mine weekly` read "weekly" as a
 * folder and asked for a report name, and `sql --allow-file-access DIR "SELECT …"` asked for a
 * statement.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runInProcess } from "../helpers/in-process-cli.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-folder-flags-"));
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
  await mkdir(join(cwd, "mine", "queries"), { recursive: true });
  await writeFile(
    join(cwd, "mine", "queries", "people.sql"),
    "-- title: People\n-- description: How many people.\nSELECT count(*) AS n FROM user\n",
  );
  await writeFile(join(cwd, "list.csv"), "a\n1\n2\n");
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("folder flags", () => {
  it("report --catalog DIR NAME reads NAME as the report, and the flag repeats", async () => {
    for (const args of [
      ["--catalog", "mine", "people"],
      ["--catalog", "mine", "--catalog", "mine", "people"],
    ]) {
      const run = await runInProcess(["report", ...args, "--format", "csv", "--out", "out"], cwd);
      expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/out\/people-.*\.csv/);
    }
  });

  it("sql --allow-file-access DIR STATEMENT reads the statement, and the flag repeats", async () => {
    const statement = `SELECT count(*) AS n FROM read_csv('${join(cwd, "list.csv")}')`;
    for (const args of [
      ["--allow-file-access", cwd, statement],
      ["--allow-file-access", cwd, "--allow-file-access", join(cwd, "mine"), statement],
    ]) {
      const run = await runInProcess(["sql", "--format", "csv", ...args], cwd);
      expect(run.stderr, args.join(" ")).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout.trim().split(/\r?\n/)).toEqual(["n", "2"]);
    }
  });
});
