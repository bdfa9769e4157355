/**
 * Number flags that are no number name the flag and the text typed (yargs alone makes them NaN),
 * `apply --max-changes` is checked on a dry run too, `list` takes no database, and the shipping
 * example of `publish --help` is the README's. In-process through main().
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-small-flags-");
const cli = (args: string[]) => runInProcess(args, cwd, { LMS_QUIET: "1" });

describe("a number flag that is no number", () => {
  it.each([
    [
      ["simulate", "--port", "abc"],
      '--port must be a number, got "abc"; see lms-export simulate --help',
    ],
    [
      ["simulate", "--port=8o8o"],
      '--port must be a number, got "8o8o"; see lms-export simulate --help',
    ],
    [
      ["demo", "--users", "many"],
      '--users must be a number, got "many"; see lms-export demo --help',
    ],
    [
      ["apply", "x.csv", "--op", "grp.edit", "--max-changes", "abc"],
      '--max-changes must be a number, got "abc"; see lms-export apply --help',
    ],
    [
      ["apply", "x.csv", "--op", "grp.edit", "--max-changes", "abc", "--dry-run"],
      '--max-changes must be a number, got "abc"; see lms-export apply --help',
    ],
    [
      ["apply", "x.csv", "--op", "grp.edit", "--max-changes"],
      "--max-changes needs a value; see lms-export apply --help",
    ],
    // Checked before the file is read, so a dry run refuses it too.
    [
      ["apply", "x.csv", "--op", "grp.edit", "--max-changes", "-1", "--dry-run"],
      "--max-changes must be a whole number >= 0, got -1",
    ],
  ])("%j", async (args, expected) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`lms-export: ${expected}\n`);
  });
});

describe("help and README agree", () => {
  it("list needs no database, and --db is not one of its options", async () => {
    const run = await cli(["list"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("weekly-compliance");
    const withDb = await cli(["list", "--db", "x.duckdb"]);
    expect(withDb.code).toBe(2);
    expect(withDb.stderr).toBe("lms-export: unknown option --db; see lms-export list --help\n");
    const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
    expect(readme).not.toMatch(/`report`, `sql` and `list` need a database/);
  });

  it("publish --help ships the lake as the README does, leaving out _staging", async () => {
    const help = (await cli(["publish", "--help"])).stdout;
    const examples = (help.split("Examples:\n")[1] ?? "").split("\n");
    // yargs wraps each example beside its description: the commands are the left column.
    const column = examples[0]?.indexOf("this week's") ?? -1;
    const commands = examples.map((line) => line.slice(0, column).trim()).join(" ");
    const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8").replace(/ \\\n\s*/g, " ");
    const shipping = /^aws s3 sync DIR .*$/m.exec(readme)?.[0] ?? "";
    expect(shipping).toContain("--exclude '_staging/*'");
    expect(commands).toContain(shipping.replaceAll("DIR", "/srv/lake"));
  });
});
