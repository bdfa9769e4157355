/**
 * A path given empty (`--lake "$LAKE"` with the variable unset) is refused by its name, exit 2,
 * before anything is read or written: the file system would take it as the working directory.
 * In-process through main(), over a real database file.
 */
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { filledDatabase } from "../publish/helpers/filled-db.js";

describe("an empty path is refused by name, not taken as the working directory", () => {
  it("publish --lake '' writes nothing into the working directory", async () => {
    const work = await tempDir();
    (await filledDatabase(work, "a")).close();
    const run = await runInProcess(["publish", "--lake", "", "--db", "a.duckdb"], work, {
      LMS_QUIET: "1",
    });
    expect(run.stderr).toBe(
      'lms-export: --lake needs a folder, got "" (is the variable that should name it set?); see lms-export publish --help\n',
    );
    expect(run.code).toBe(2);
    expect(await readdir(work)).toEqual(["a.duckdb"]);
  });

  it("sql --allow-file-access '' opens no folder to SQL, not even the working directory", async () => {
    const work = await tempDir();
    (await filledDatabase(work, "a")).close();
    await writeFile(join(work, "people.csv"), "id,name\n1,Ada\n");
    const statement = "SELECT count(*) FROM read_csv('people.csv')";
    const run = await runInProcess(
      ["sql", "--db", "a.duckdb", "--allow-file-access", "", statement],
      work,
      { LMS_QUIET: "1" },
    );
    expect(run.stderr).toBe(
      'lms-export: --allow-file-access needs a folder, got "" (is the variable that should name it set?); see lms-export sql --help\n',
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
  });

  it.each([
    [["publish", "--lake", "  ", "--db", "a.duckdb"], '--lake needs a folder, got "  "'],
    [["report", "completion", "--lake", ""], "--lake needs a folder"],
    [["report", "completion", "--db", "a.duckdb", "--out", ""], "--out needs a folder"],
    [["sql", "SELECT 1", "--db", ""], "--db needs a DuckDB file"],
    [["demo", "--db", ""], "--db needs a DuckDB file"],
    [["report", "completion", "--config", ""], "--config needs a config file"],
    [
      ["report", "completion", "--catalog", "x", "--catalog", ""],
      '--catalog needs a folder, got ""',
    ],
    [["roster", "import", "", "--db", "a.duckdb"], "roster import needs the roster file"],
    [["apply", "", "--op", "user.edit", "--db", "a.duckdb"], "apply needs the file of changes"],
  ])("%j", async (args, said) => {
    const work = await tempDir();
    const run = await runInProcess(args, work, { LMS_QUIET: "1" });
    expect(run.stderr.startsWith(`lms-export: ${said}`), run.stderr).toBe(true);
    expect(run.stderr.split("\n")).toHaveLength(2);
    expect(run.code).toBe(2);
    expect(await readdir(work)).toEqual([]);
  });
});

describe("a file argument given as '-' (standard input elsewhere) is said to be no file", () => {
  it.each([
    [["apply", "-", "--op", "user.edit", "--db", "a.duckdb"], "apply needs the file of changes"],
    [["roster", "import", "-", "--db", "a.duckdb"], "roster import needs the roster file"],
  ])("%j", async (args, needs) => {
    const work = await tempDir();
    const run = await runInProcess(args, work, { LMS_QUIET: "1" });
    const help = `lms-export ${args[0] === "apply" ? "apply" : "roster import"} --help`;
    expect(run.stderr).toBe(
      `lms-export: ${needs}, got "-", but it reads no standard input: save the data to a file and give its path; see ${help}\n`,
    );
    expect(run.code).toBe(2);
    expect(await readdir(work)).toEqual([]);
  });
});

describe("a path that starts with '-' is said to look like a flag, not to be empty or missing", () => {
  it.each([
    [["report", "completion", "--out", "-o"], "--out needs a folder", "--out=./-o (or --out ./-o)"],
    [
      ["report", "completion", "--lake", "-x"],
      "--lake needs a folder",
      "--lake=./-x (or --lake ./-x)",
    ],
    [
      ["sql", "--db", "-x y.duckdb", "SELECT 1"],
      "--db needs a DuckDB file",
      "--db='./-x y.duckdb' (or --db './-x y.duckdb')",
    ],
  ])("%j", async (args, needs, written) => {
    const work = await tempDir();
    const run = await runInProcess(args, work, { LMS_QUIET: "1" });
    const typed = args[args.indexOf(needs.split(" ")[0] ?? "") + 1];
    expect(run.stderr).toBe(
      `lms-export: ${needs}, and ${typed} after it looks like a flag: if that is its name, write ${written}; see lms-export ${args[0]} --help\n`,
    );
    expect(run.code).toBe(2);
    expect(await readdir(work)).toEqual([]);
  });
});

describe("a secret file's option followed by a word starting with '-'", () => {
  it.each([
    [["extract", "--db", "a.duckdb", "--api-key-file", "-sk_live_S3CRET"], "-sk_live_S3CRET"],
    [
      ["schedule", "--cron", "0 0 1 1 *", "--", "extract", "--api-key-file", "-sk_S3CRET"],
      "-sk_S3CRET",
    ],
    [
      ["report", "completion", "--mail-to", "a@x.org", "--smtp-password-file", "-P4ssw0rd"],
      "-P4ssw0rd",
    ],
  ])("%j never shows the word: it may be the secret itself", async (args, secret) => {
    const work = await tempDir();
    const run = await runInProcess(args, work, { LMS_QUIET: "1" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the word after it starts with "-" (not shown');
    expect(run.stderr).not.toContain(secret);
    expect(run.stderr).not.toContain(secret.slice(1));
  });
});
