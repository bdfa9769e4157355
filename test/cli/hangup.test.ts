/**
 * SIGHUP (a closed terminal, an ended session) stops a command as SIGTERM does, with its own exit
 * code 129: an extract says it was interrupted and keeps its work for --resume, and a schedule
 * stops its running run, waits for it and logs both, instead of dying and leaving the run behind.
 * The built CLI (dist/) against a slow simulated portal over HTTP; only the process named gets
 * the signal.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";
import { stderrText } from "../helpers/stderr-text.js";
import { useSlowPortal, waitFor, watchChild } from "./schedule-helpers.js";

const { tmp, env } = useSlowPortal("hangup-key");

/** The built CLI with `args`; its stderr as it comes, its JSON log lines, and how it ended. */
function cli(args: string[]) {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, "bin", "lms-export.js"), ...args], {
    cwd: tmp.dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: env(),
  });
  const { seen, ended, events } = watchChild(child);
  return { child, ended, events, stderr: () => seen.stderr };
}

const EXTRACT = ["extract", "--concurrency", "2", "--log-format", "json"];

it("an extract that gets SIGHUP stops as on SIGTERM, with exit 129", async () => {
  const run = cli([...EXTRACT, "--db", "hup.duckdb"]);
  await waitFor("the first resource", () => run.events().some((e) => e.msg === "extracted grp"));
  run.child.kill("SIGHUP");
  expect(await run.ended).toEqual({ code: 129, signal: null });
  expect(stderrText(run.stderr())).toContain(
    "lms-export: extract interrupted; the new database holds no records yet",
  );
}, 60_000);

it("a schedule that gets SIGHUP stops its run, waits for it and logs both, exit 0", async () => {
  const run = cli([
    "schedule",
    "--cron",
    "0 0 1 1 *",
    "--run-now",
    "--log-format",
    "json",
    "--",
    ...EXTRACT,
    "--db",
    "scheduled.duckdb",
  ]);
  await waitFor("the run's first resource", () =>
    run.events().some((e) => e.msg === "extracted grp"),
  );
  run.child.kill("SIGHUP");
  expect(await run.ended).toEqual({ code: 0, signal: null });
  const messages = run.events().map((e) => e.msg);
  expect(messages).toContain("stopping: asking the running run to end and waiting for it");
  expect(run.events().find((e) => e.msg === "run stopped: the schedule is stopping")).toMatchObject(
    { exitCode: 143 },
  );
  expect(messages.at(-1)).toBe("schedule stopped");
  expect(run.stderr()).toContain("extract interrupted; the new database holds no records yet");
}, 60_000);
