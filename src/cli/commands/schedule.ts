/**
 * `lms-export schedule --cron "EXPR" [--timezone TZ] [--run-now] -- COMMAND...`
 *
 * Runs another lms-export command at each cron tick, each run a child process of this same CLI,
 * so a crash or a leak in one run cannot take the scheduler down with it, and each run opens and
 * closes the database like a run from cron(8) would. Runs never overlap: a tick that finds the
 * previous run still going is skipped and logged. SIGTERM/SIGINT stop the scheduler cleanly: no
 * new run starts, the running child gets SIGTERM and is waited for, then the command returns 0.
 * The engine is src/schedule/scheduler.ts; this file checks the command and wires it.
 */
import type { Argv } from "yargs";
import { resolveConfig } from "../../config/resolve.js";
import { homeOf, settingPath } from "../../config/setting-path.js";
import { createCliLogger } from "../../log/cli-logger.js";
import { streamIsTTY } from "../../log/color.js";
import { checkCron, runSchedule } from "../../schedule/scheduler.js";
import { spawnCliRun } from "../../schedule/spawn-run.js";
import type { CommandArgs } from "../command-args.js";
import type { CliContext } from "../context.js";
import { withConfigOption, withLogOptions } from "../options.js";
import { scheduleFailureHint } from "../schedule-failure-hint.js";
import { type CheckCommandLine, checkScheduledCommand, commandArgs } from "../scheduled-command.js";
import { scheduledFailureNotice } from "../scheduled-failure-notice.js";

/** --cron, --timezone and --run-now; everything after `--` is the command to run. */
function scheduleBuilder(y: Argv) {
  return withLogOptions(withConfigOption(y))
    .parserConfiguration({ "populate--": true })
    .usage('$0 schedule --cron "EXPR" [--timezone TZ] [--run-now] -- COMMAND...')
    .option("cron", {
      type: "string",
      demandOption: true,
      description: 'When to run: "minute hour day month weekday" (or 6 fields with seconds first)',
    })
    .option("timezone", {
      type: "string",
      description: "IANA time zone the expression is read in (default: this machine's)",
    })
    .option("run-now", {
      type: "boolean",
      description: "Also run once right away",
    })
    .example('$0 schedule --cron "0 6 * * 1" -- run weekly-compliance', "Mondays at 06:00")
    .example(
      '$0 schedule --cron "0 6 * * 1" -- run weekly-compliance --mail',
      "Mondays at 06:00, then mailed to the default recipients",
    )
    .example(
      '$0 schedule --cron "30 2 * * *" --timezone Europe/Berlin -- extract --incremental',
      "Every night at 02:30 Berlin time",
    );
}

/**
 * Checks the command, the cron expression and any mail settings before the first tick, then runs
 * the schedule until a signal stops it.
 */
async function scheduleHandler(
  argv: CommandArgs<typeof scheduleBuilder>,
  ctx: CliContext,
  checkCommandLine: CheckCommandLine,
): Promise<void> {
  const args = commandArgs(argv);
  const timezone = argv.timezone === "" ? undefined : argv.timezone;
  checkCron(argv.cron, timezone);
  // The runs read the schedule's config file too: as LMS_CONFIG, which a --config of the command
  // itself overrides and which commands without settings ignore. Absolute, as the runs' folder
  // need not stay the one the schedule was started in.
  const runEnv = {
    ...ctx.env,
    ...(argv.config === undefined || argv.config === ""
      ? {}
      : { LMS_CONFIG: settingPath({ dir: ctx.cwd, home: homeOf(ctx.env) }, argv.config) }),
    ...logFlagsForRuns(argv),
  };
  const settings = await checkScheduledCommand(args, { ...ctx, env: runEnv }, checkCommandLine);
  const config = await resolveConfig({
    flags: argv,
    env: ctx.env,
    cwd: ctx.cwd,
    isTTY: streamIsTTY(ctx.stderr),
  });
  const logger = createCliLogger({
    format: config.logFormat,
    quiet: config.quiet,
    stream: ctx.stderr,
    env: ctx.env,
    secrets: () => [
      ctx.env.LMS_API_KEY ?? "",
      ctx.env.LMS_SMTP_PASSWORD ?? "",
      ctx.env.PGPASSWORD ?? "",
    ],
  });
  await runSchedule({
    cron: argv.cron,
    timezone,
    runNow: argv.runNow === true,
    args,
    logger,
    signal: ctx.signal,
    failureHint: scheduleFailureHint(args, { ...ctx, env: runEnv }, checkCommandLine),
    onFailure: scheduledFailureNotice(args, { ...ctx, env: runEnv }, checkCommandLine, settings),
    startRun: (runArgs) =>
      spawnCliRun(runArgs, {
        stdout: ctx.stdout,
        stderr: ctx.stderr,
        env: runEnv,
        cwd: ctx.cwd,
      }),
  });
}

/**
 * The schedule's own `--quiet` and `--log-format`, as the environment its runs read: the runs
 * write to the same stream, and a JSON log with a run's human lines in it (or a quiet schedule
 * whose runs are not) is no use to whoever reads it. A flag of the run's own command still wins.
 */
function logFlagsForRuns(argv: Readonly<Record<string, unknown>>): Record<string, string> {
  const env: Record<string, string> = {};
  if (typeof argv.quiet === "boolean") env.LMS_QUIET = argv.quiet ? "1" : "0";
  if (typeof argv.logFormat === "string") env.LMS_LOG_FORMAT = argv.logFormat;
  return env;
}

/** `checkCommandLine` parses the scheduled command with the CLI's own definitions (main's). */
export function registerSchedule(checkCommandLine: CheckCommandLine) {
  return (root: Argv, ctx: CliContext): Argv =>
    root.command(
      "schedule",
      "Run an lms-export command on a cron schedule, one run at a time",
      scheduleBuilder,
      (argv) => scheduleHandler(argv, ctx, checkCommandLine),
    );
}
