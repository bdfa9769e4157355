/**
 * The examples `report --help` shows run on the demo's database, the smallest portal the
 * simulator makes (10 products): those that read one database file, each as printed with that
 * database and an output folder of the test's. An example naming records the demo does not have
 * was refused by the command it teaches.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-report-examples-");
const env = { LMS_QUIET: "1", LMS_LOG_FORMAT: "json" };

/** What an example needs beyond one database file: another source, a portal, mail, a file. */
const NEEDS_MORE = /--lake|--all-portals|--portal|--mail|\.sql\b/;

/**
 * The command lines of the help's Examples, as yargs prints them: the command in a left column
 * (wrapped onto the next lines when long), its description to the right.
 */
function examples(help: string): string[][] {
  const lines = help.slice(help.indexOf("Examples:")).split("\n").slice(1);
  // The description column: where the first example's description starts, after its padding.
  const column = /^ {2}\S.*? {2,}/.exec(lines[0] ?? "")?.[0].length ?? 0;
  const commands: string[] = [];
  for (const line of lines) {
    const left = line.slice(0, column).trim();
    if (line.startsWith("  lms-export ")) commands.push(left);
    else if (left !== "" && commands.length > 0) commands.push(`${commands.pop()} ${left}`);
  }
  return commands.map((command) => command.split(/\s+/).slice(1));
}

describe("report --help's examples", () => {
  it("run as shown on the demo's database", async () => {
    const demo = await runInProcess(
      ["demo", "--users", "20", "--format", "csv", "--db", "demo.duckdb", "--out", "demo-out"],
      cwd,
      env,
    );
    expect(demo.code, demo.stderr).toBe(0);
    const help = await runInProcess(["report", "--help"], cwd, env);
    const runnable = examples(help.stdout).filter((words) => !NEEDS_MORE.test(words.join(" ")));
    expect(runnable.map((words) => words.slice(0, 2).join(" "))).toContain("report compliance");
    expect(runnable.some((words) => words.includes("--param"))).toBe(true);
    for (const [i, words] of runnable.entries()) {
      const out = join(cwd, `example-${i}`);
      const run = await runInProcess([...words, "--db", "demo.duckdb", "--out", out], cwd, env);
      expect(run.code, `${words.join(" ")}: ${run.stderr}`).toBe(0);
    }
  }, 180_000);
});
