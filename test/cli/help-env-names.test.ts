/**
 * A setting that an environment variable can give says so in the help of every command that takes
 * its flag, as the README's settings tables do: a reader of `--help` alone learns `LMS_FORMAT`
 * from `--format`, as `LMS_OUT` from `--out`. In-process through main().
 */
import { describe, expect, it } from "vitest";
import { FIELDS } from "../../src/config/fields.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-help-env-");
const COMMANDS = ["extract", "report", "run", "sql", "check", "publish", "schedule", "apply"];

/** Each option of a help text with its description, continuation lines joined. */
function optionTexts(help: string): Map<string, string> {
  const options = new Map<string, string>();
  let current: string | undefined;
  for (const line of (help.split("\nExamples:")[0] ?? "").split("\n")) {
    const start = /^\s+(?:-\w, )?--([a-z][a-z0-9-]*)\s+(.*)$/.exec(line);
    if (start) {
      current = start[1] as string;
      options.set(current, start[2] ?? "");
    } else if (current !== undefined && /^\s{6,}\S/.test(line)) {
      options.set(current, `${options.get(current)} ${line.trim()}`);
    } else current = undefined;
  }
  return options;
}

describe("--help names the environment variable of each setting", () => {
  it.each(COMMANDS)("%s", async (command) => {
    const run = await runInProcess([command, "--help"], cwd, {});
    expect(run.code, run.stderr).toBe(0);
    const options = optionTexts(run.stdout);
    const missing = Object.values(FIELDS).flatMap(({ flag, env }) => {
      // sql's --format is the form of its output (table, csv, json), not the report formats.
      const text = command === "sql" && flag === "format" ? undefined : options.get(flag);
      return env === undefined || text === undefined || text.includes(env) ? [] : [`--${flag}`];
    });
    expect(missing).toEqual([]);
  });
});

describe("demo's --help names no setting it does not read", () => {
  it("its --out and --format say the environment is not read", async () => {
    const run = await runInProcess(["demo", "--help"], cwd, {});
    expect(run.code, run.stderr).toBe(0);
    const options = optionTexts(run.stdout);
    expect(options.get("format")).not.toContain("env LMS_FORMAT");
    expect(options.get("out")).not.toContain("env LMS_OUT");
  });
});

describe("--duckdb-memory-limit's default is the one the command works under", () => {
  it.each([
    ["apply", "256MB"],
    ["publish", "256MB"],
    ["roster import", "256MB"],
    ["sql", "1GB"],
    ["report", "256MB for reports, 96MB while extracting"],
  ])("%s: %s", async (command, ceiling) => {
    const run = await runInProcess([...command.split(" "), "--help"], cwd, {});
    expect(run.code, run.stderr).toBe(0);
    expect(optionTexts(run.stdout).get("duckdb-memory-limit")).toContain(
      `(default: ${ceiling}; env LMS_DUCKDB_MEMORY_LIMIT)`,
    );
  });
});
