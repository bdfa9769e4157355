/**
 * Tab in a real bash: the script `completion bash` prints, sourced, asks a real child process
 * (the CLI from its sources, on PATH as lms-export) for the words, as bash does on Tab.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT, runCli } from "../helpers/spawn-cli.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "tab-"));
const script = join(dir, "completion.bash");

beforeAll(async () => {
  const helpers = join(PROJECT_ROOT, "test", "helpers");
  const launcher = join(dir, "lms-export");
  writeFileSync(
    launcher,
    `#!/bin/sh\nexec "${process.execPath}" --import "${join(helpers, "register-ts.mjs")}" "${join(helpers, "cli-child.ts")}" "$@"\n`,
  );
  chmodSync(launcher, 0o755);
  const printed = await runCli(["completion", "bash"]);
  expect(printed.code).toBe(0);
  writeFileSync(script, printed.stdout);
});

/** What bash offers, and what it printed, for Tab after `words` (the last one being typed). */
async function tab(...words: string[]): Promise<{ offered: string[]; stderr: string }> {
  const line = ["lms-export", ...words].map((word) => `'${word}'`).join(" ");
  const { stdout, stderr } = await run(
    "bash",
    [
      "-c",
      `source "${script}"; COMP_WORDS=(${line}); COMP_CWORD=${words.length}; _lms-export_yargs_completions; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { cwd: dir, env: { ...process.env, PATH: `${dir}:${process.env.PATH}` } },
  );
  return { offered: stdout.split("\n").filter((word) => word !== ""), stderr };
}

// Each Tab starts the CLI from its sources, a few seconds on a loaded machine, nine in a test.
describe("Tab", { timeout: 180_000 }, () => {
  it("leaves a flag's value and a file argument to the shell's file names, printing nothing", async () => {
    for (const words of [
      ["extract", "--db", ""],
      ["apply", ""],
      ["roster", "import", ""],
    ]) {
      expect(await tab(...words)).toEqual({ offered: [], stderr: "" });
    }
  });

  it("offers a flag's choices, the report names, and flags where a flag is begun", async () => {
    expect((await tab("extract", "--log-format", "")).offered).toEqual(["human", "json"]);
    expect((await tab("report", "weekly-c")).offered).toEqual(["weekly-compliance"]);
    expect((await tab("run", "weekly-compliance", "data-f")).offered).toEqual(["data-freshness"]);
    expect((await tab("extract", "--inc")).offered).toEqual(["--incremental"]);
    expect((await tab("apply", "changes.csv", "--port")).offered).toEqual(["--portal"]);
    // A "--" being typed begins a flag, also for the commands that take a lone "--".
    expect((await tab("sql", "--")).offered).toContain("--format");
    expect((await tab("roster", "import", "people.csv", "--")).offered).toContain("--merge");
    expect((await tab("report", "compliance", "--")).offered).toContain("--param");
    // Flags and their values before the command are not the command.
    expect((await tab("--db", "x.duckdb", "report", "weekly-c")).offered).toEqual([
      "weekly-compliance",
    ]);
    expect(await tab("--db", "x.duckdb", "apply", "")).toEqual({ offered: [], stderr: "" });
  });

  it("reads a value bash split off at = as the flag's, and offers completion's shells", async () => {
    // bash passes `--out=weekly-c` as three words: `--out`, `=`, `weekly-c`.
    expect(await tab("report", "--out", "=", "weekly-c")).toEqual({ offered: [], stderr: "" });
    expect((await tab("extract", "--log-format", "=", "h")).offered).toEqual(["human"]);
    expect((await tab("report", "--out", "=", "o", "weekly-c")).offered).toEqual([
      "weekly-compliance",
    ]);
    expect((await tab("completion", "")).offered).toEqual(["bash", "zsh"]);
    expect((await tab("completion", "z")).offered).toEqual(["zsh"]);
  });

  it("completes the words after schedule's -- as the command the schedule runs", async () => {
    const scheduled = ["schedule", "--cron", "0 6 * * 1", "--"];
    const flags = (await tab(...scheduled, "run", "--m")).offered;
    expect(flags).toContain("--mail");
    expect(flags).not.toContain("--run-now");
    expect((await tab(...scheduled, "run", "weekly-c")).offered).toEqual(["weekly-compliance"]);
    expect((await tab(...scheduled, "extract", "--inc")).offered).toEqual(["--incremental"]);
    // Before the --, the words are still schedule's.
    expect((await tab("schedule", "--run")).offered).toEqual(["--run-now"]);
  });
});
