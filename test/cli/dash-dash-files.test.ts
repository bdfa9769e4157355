/**
 * A file after a lone `--` is the command's file, whatever its name starts with: `roster import
 * -- -people.csv` and `report -- -mine.sql` read those files, as most tools take `--`.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

describe("files after --", () => {
  it("are read as the command's files, names starting with - included", async () => {
    const dir = tempDirForFile("lms-dash-dash-");
    await writeFile(join(dir, "-people.csv"), "user_id,email\n1,ana@example.org\n");
    await writeFile(join(dir, "-mine.sql"), "SELECT count(*) AS people FROM user\n");
    const imported = await runCli(dir, [
      "roster",
      "import",
      "--db",
      "r.duckdb",
      "--",
      "-people.csv",
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    const report = await runCli(dir, [
      ...["report", "--db", "r.duckdb", "--format", "csv", "--out", "out", "--", "-mine.sql"],
    ]);
    expect(report.code, report.stderr).toBe(0);
    // With the flags before the command, their values are not the command.
    const first = ["--db", "r.duckdb", "--format", "csv", "--out", "first"];
    const flagsFirst = await runCli(dir, [...first, "report", "--", "-mine.sql"]);
    expect(flagsFirst.code, flagsFirst.stderr).toBe(0);
    expect(await readdir(join(dir, "first"))).toEqual([expect.stringMatching(/^-mine-.*\.csv$/)]);
    const [written] = await readdir(join(dir, "out"));
    expect(written).toMatch(/^-mine-.*\.csv$/);
    const text = await readFile(join(dir, "out", String(written)), "utf8");
    expect(
      text
        .replace(/^\uFEFF/, "")
        .trim()
        .split(/\r?\n/),
    ).toEqual(["people", "1"]);
  });
});
