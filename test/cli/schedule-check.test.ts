/**
 * `schedule` checks its command when it starts: a real child process with an unknown command or
 * report name ends at once with exit 2 instead of waiting for its first tick.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

describe("schedule checks its command at start", () => {
  it("refuses an unknown command and an unknown report name with exit 2", async () => {
    const command = await runCli(["schedule", "--cron", "0 6 * * 1", "--", "rnu", "weekly"]);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/^lms-export: unknown command "rnu" after --: name one of run,/);
    const report = await runCli([
      ...["schedule", "--cron", "0 6 * * 1", "--", "run", "weekly-complianse"],
      ...["--incremental"],
    ]);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('unknown report or query "weekly-complianse"');
  });

  it("refuses an extract's bad --since and a run's unknown --only with exit 2", async () => {
    const portal = ["--base-url", "https://lms.example.com/api-v2"];
    const since = await runCli([
      ...["schedule", "--cron", "0 6 * * 1", "--", "extract", "--since", "yesterday"],
      ...portal,
    ]);
    expect(since.code, since.stderr).toBe(2);
    expect(since.stderr).toMatch(
      /^lms-export: the command after -- is wrong: --since: "yesterday" is not an ISO 8601 date/,
    );
    const only = await runCli([
      ...["schedule", "--cron", "0 6 * * 1", "--", "run", "weekly-compliance", "--only", "takes"],
      ...portal,
    ]);
    expect(only.code, only.stderr).toBe(2);
    expect(only.stderr).toMatch(
      /^lms-export: the command after -- is wrong: --only: unknown resource "takes"/,
    );
  });

  it("refuses a report's .sql file that DuckDB cannot parse with exit 2", async () => {
    const dir = tempDirForFile("lms-schedule-sql-");
    await writeFile(join(dir, "typo.sql"), "SELECT count(*) FORM take\n");
    const run = await runCli(
      ["schedule", "--cron", "0 6 * * 1", "--", "report", "./typo.sql", "--db", "x.duckdb"],
      { cwd: dir },
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /^lms-export: the command after -- is wrong: SQL error in \.\/typo\.sql:1: Parser Error: syntax error at or near "take"/,
    );
  });
});
