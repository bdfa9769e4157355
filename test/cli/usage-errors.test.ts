/**
 * yargs' own usage errors and the errors of option coerce functions, as every lms-export error:
 * one line on stderr, exit code 2, naming the bad flag or value and what is accepted, and pointing
 * to the command's help. In-process through main().
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-usage-");

async function usageError(args: string[]): Promise<string> {
  const run = await runInProcess(args, cwd, { LMS_QUIET: "1" });
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe("");
  const lines = run.stderr.split("\n").filter((line) => line !== "");
  expect(lines, run.stderr).toHaveLength(1);
  return lines[0] ?? "";
}

describe("a bad --wait is bad input, not an unexpected error", () => {
  it.each([
    [["extract", "--wait", "abc"]],
    [["report", "access", "--wait", "abc"]],
    [["sql", "SELECT 1", "--wait", "-3"]],
  ])("%j", async (args) => {
    expect(await usageError(args)).toMatch(
      /^lms-export: --wait must be a number of seconds >= 0, got "(abc|-3)"; see lms-export (extract|report|sql) --help$/,
    );
  });
});

describe("usage errors are one line that says what to do", () => {
  it.each([
    [
      ["extract", "--log-format", "xml"],
      '--log-format "xml" is not accepted: use human or json; see lms-export extract --help',
    ],
    [
      ["sql", "--format", "xml", "SELECT 1"],
      '--format "xml" is not accepted: use table, csv or json; see lms-export sql --help',
    ],
    [
      ["simulate", "--dialect", "foo"],
      '--dialect "foo" is not accepted: use standard or other; see lms-export simulate --help',
    ],
    [
      ["report"],
      "report needs the names of the reports or queries to write (`lms-export list` shows them); see lms-export report --help",
    ],
    [["extract", "--bogus"], "unknown option --bogus; see lms-export extract --help"],
    [
      ["extract", "--bogus", "--other=1", "stray"],
      'unknown options --bogus and --other; unexpected argument "stray"; see lms-export extract --help',
    ],
    [
      ["roster", "import"],
      "roster import needs the roster file; see lms-export roster import --help",
    ],
    [
      ["roster", "import", "--wait", "people.csv"],
      'roster import needs the roster file (--wait read "people.csv" as its seconds: write --wait after it, or give it a number, --wait 600); see lms-export roster import --help',
    ],
    [
      ["apply", "--wait", "extend.csv", "--op", "grp.edit"],
      'apply needs the file of changes (--wait read "extend.csv" as its seconds: write --wait after it, or give it a number, --wait 600); see lms-export apply --help',
    ],
    [
      ["roster", "import", "-f.csv"],
      'roster import needs the roster file (a word starting with "-" is read as flags: write a file whose name starts with "-" as ./NAME, or after --); see lms-export roster import --help',
    ],
    [
      ["apply", "-e1.csv", "--op", "grp.edit"],
      'apply needs the file of changes (a word starting with "-" is read as flags: write a file whose name starts with "-" as ./NAME, or after --); see lms-export apply --help',
    ],
    [["schedule", "--", "list"], "--cron is required; see lms-export schedule --help"],
    [
      ["schedule", "--cron", "0 6 * * 1", "run", "weekly-compliance"],
      'unexpected arguments "run" and "weekly-compliance" (the command to run goes after a lone --: lms-export schedule --cron \'0 6 * * 1\' -- run weekly-compliance); see lms-export schedule --help',
    ],
    [
      ["schedule", "--cron", "0 6 * * 1", "extract", "--incremental"],
      "unknown option --incremental; unexpected argument \"extract\" (the command to run goes after a lone --: lms-export schedule --cron '0 6 * * 1' -- extract --incremental); see lms-export schedule --help",
    ],
    [
      ["schedule", "--cron", "0 6 * * 1", "--run-nwo"],
      "unknown option --run-nwo; see lms-export schedule --help",
    ],
    [
      ["extract", "--portal", "a", "--all-portals"],
      "--portal and --all-portals cannot be used together; see lms-export extract --help",
    ],
    [
      ["report", "access", "--all-portals", "--db", "x.duckdb"],
      "--db and --all-portals cannot be used together; see lms-export report --help",
    ],
    [
      ["report", "access", "--lake", "lake", "--db", "x.duckdb"],
      "--db and --lake cannot be used together; see lms-export report --help",
    ],
    [
      ["extract", "--portal", "north"],
      '--portal north names a portal of the config file, and no config file was found: write lms-export.config.json here (or pass --config FILE or set LMS_CONFIG) with {"portals": {"north": {"baseUrl": "...", "apiKeyFile": "..."}}}',
    ],
    [["extrct"], 'unknown command "extrct" (did you mean extract?); see lms-export --help'],
  ])("%j", async (args, expected) => {
    expect(await usageError(args)).toBe(`lms-export: ${expected}`);
  });
});

describe("a number flag out of range names the value as typed and the range", () => {
  const rate =
    "option --rate must be a number of requests per second up to 1000000, 0 for no limit";
  it.each([
    [["extract", "--rate", "1e400"], `${rate} (got 1e400)`],
    [["extract", "--rate=1e12"], `${rate} (got 1e12)`],
    [["extract", "--rate", "-1"], `${rate} (got -1)`],
    [
      ["extract", "--page-size", "0"],
      "option --page-size must be a whole number from 1 to 10000 (got 0)",
    ],
  ])("%j", async (args, expected) => {
    expect(await usageError(args)).toBe(`lms-export: ${expected}`);
  });
});

describe("a setting's flag given twice is said to be, not shown as a list", () => {
  it.each([
    [["extract", "--concurrency", "1", "--concurrency", "2", "--db", "z.duckdb"], "concurrency"],
    [["sql", "SELECT 1", "--db", "a.duckdb", "--db", "b.duckdb"], "db"],
    [
      ["extract", "--base-url", "https://u:pw@x/api-v2", "--base-url", "https://y/api-v2"],
      "base-url",
    ],
  ])("%j", async (args, flag) => {
    expect(await usageError(args)).toBe(
      `lms-export: option --${flag} is given 2 times: give it once`,
    );
  });
});

describe("an address of the wrong type in a setting is not shown when it may hold a password", () => {
  it("a list for baseUrl in the config file", async () => {
    const dir = tempDirForFile("lms-address-");
    const config = join(dir, "c.json");
    await writeFile(
      config,
      JSON.stringify({ baseUrl: ["https://u:pw-41x@lms.example.com/api-v2"] }),
    );
    const line = await usageError(["extract", "--config", config]);
    expect(line).toBe(
      `lms-export: ${config}: field "baseUrl" must be the portal's API address, e.g. https://lms.example.com/api-v2 (got a value not shown, as it may hold a password)`,
    );
  });
});

describe("a number flag typed empty, or as a number that rounds to 0, is refused, not read as 0", () => {
  const unset = "(is the variable that should give it set?); see lms-export extract --help";
  it.each([
    [["extract", "--rate", ""], `--rate needs a number, got "" ${unset}`],
    [["extract", "--rate", " "], `--rate needs a number, got " " ${unset}`],
    [["extract", "--rate="], `--rate needs a number, got "" ${unset}`],
    [["extract", "--page-size", ""], `--page-size needs a number, got "" ${unset}`],
    [["extract", "--max-concurrency", ""], `--max-concurrency needs a number, got "" ${unset}`],
    [["extract", "--wait", ""], `--wait needs a number, got "" ${unset}`],
    [["extract", "--wait="], `--wait needs a number, got "" ${unset}`],
    [
      ["extract", "--wait", "1e-400"],
      "--wait got 1e-400, which is too small to be told from 0: write 0 if 0 is meant, or a larger number; see lms-export extract --help",
    ],
    [
      ["extract", "--rate", "1e-400"],
      "--rate got 1e-400, which is too small to be told from 0: write 0 if 0 is meant, or a larger number; see lms-export extract --help",
    ],
  ])("%j", async (args, expected) => {
    expect(await usageError(args)).toBe(`lms-export: ${expected}`);
  });

  it("an empty --rate does not lift the limit LMS_RATE sets", async () => {
    const run = await runInProcess(["extract", "--rate", ""], cwd, { LMS_RATE: "2" });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`lms-export: --rate needs a number, got "" ${unset}\n`);
  });
});

describe("a word yargs splits into one-letter flags is never spelled out", () => {
  // A key or password starting with "-" typed after a flag (--api-key -Xq7…) was listed letter
  // by letter as unexpected arguments, on stderr and in cron logs.
  it.each([
    [["extract", "--base-url", "http://x", "--api-key", "-Xq7Lm9Zt"], "", "-Xq7Lm9Zt"],
    [["check", "--api_key_file", "-sEcReT123"], "unknown option --api_key_file; ", "-sEcReT123"],
    [["run", "weekly-compliance", "--smtp-password", "-Pw9Hk"], "", "-Pw9Hk"],
    // A negative number yargs does not read as one is split alike.
    [["extract", "--db", "z.duckdb", "--rate", "-1e3"], "", "-1e3"],
  ])("%j", async (args, before, secret) => {
    const run = await runInProcess(args, cwd, { LMS_QUIET: "1" });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `lms-export: ${before}a word starting with "-" that is no option (not shown: it may be a secret; a value that starts with "-" is written --flag=VALUE); see lms-export ${args[0]} --help\n`,
    );
    for (const letter of secret.slice(1)) expect(run.stderr).not.toContain(`"${letter}"`);
  });
});
