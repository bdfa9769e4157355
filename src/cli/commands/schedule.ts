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
import { LmsExportError } from "../../errors/lms-export-error.js";
import { createCliLogger } from "../../log/cli-logger.js";
import { streamIsTTY } from "../../log/color.js";
import { didYouMean } from "../../report/suggest-name.js";
import { checkCron, runSchedule } from "../../schedule/scheduler.js";
import { spawnCliRun } from "../../schedule/spawn-run.js";
import { loadCatalogFor } from "../catalog-option.js";
import type { CommandArgs } from "../command-args.js";
import type { CliContext } from "../context.js";
import { withConfigOption, withLogOptions } from "../options.js";
import { checkScheduledMail } from "../scheduled-mail-check.js";

/** The lms-export arguments given after `--`. */
function commandArgs(argv: Readonly<Record<string, unknown>>): string[] {
  const afterDashes = argv["--"];
  const positional = Array.isArray(afterDashes) ? afterDashes : [];
  const args = positional.map((value) => String(value));
  // "-- lms-export run x" means the same as "-- run x".
  if (args[0] === "lms-export") args.shift();
  if (args.length === 0) {
    throw new LmsExportError(
      "bad-input",
      'name the command to run after --, e.g. lms-export schedule --cron "0 6 * * 1" -- run weekly-compliance',
    );
  }
  if (args[0] === "schedule") {
    throw new LmsExportError(
      "bad-input",
      "schedule cannot run schedule: name the command to run after --",
    );
  }
  // A flag first (--version) is lms-export's own option, not a command.
  if (!args[0]?.startsWith("-") && !SCHEDULABLE.includes(args[0] ?? "")) {
    throw new LmsExportError(
      "bad-input",
      `unknown command "${args[0]}" after --: name one of ${SCHEDULABLE.join(", ")}`,
    );
  }
  return args;
}

/** Commands a schedule may run. */
const SCHEDULABLE = ["run", "extract", "report", "sql", "list", "check", "demo", "simulate"];

/**
 * The report and query names of a scheduled `report` or `run`, checked now: a typo must not wait
 * a week for its first tick. Names are the words after the command up to the first flag.
 */
async function checkReportNames(args: readonly string[], ctx: CliContext): Promise<void> {
  if (args[0] !== "report" && args[0] !== "run") return;
  const firstFlag = args.findIndex((arg, i) => i > 0 && arg.startsWith("-"));
  const names = args.slice(1, firstFlag === -1 ? undefined : firstFlag);
  const catalogs = args.flatMap((arg, i) => (arg === "--catalog" ? [args[i + 1] ?? ""] : []));
  const catalog = await loadCatalogFor(catalogs.length > 0 ? catalogs : undefined, ctx);
  for (const name of names) {
    if (/\.sql$/i.test(name) || catalog.reports.has(name) || catalog.queries.has(name)) continue;
    throw new LmsExportError(
      "not-found",
      `unknown report or query "${name}" in the command after --${didYouMean(name, [...catalog.reports.keys(), ...catalog.queries.keys()])}; \`lms-export list\` shows the names`,
    );
  }
}

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
      "Mondays at 06:00, then mailed as the report's mail block says",
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
): Promise<void> {
  const args = commandArgs(argv);
  await checkReportNames(args, ctx);
  const timezone = argv.timezone === "" ? undefined : argv.timezone;
  checkCron(argv.cron, timezone);
  await checkScheduledMail(args, ctx);
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
    secrets: () => [ctx.env.LMS_API_KEY ?? "", ctx.env.LMS_SMTP_PASSWORD ?? ""],
  });
  await runSchedule({
    cron: argv.cron,
    timezone,
    runNow: argv.runNow === true,
    args,
    logger,
    signal: ctx.signal,
    startRun: (runArgs) =>
      spawnCliRun(runArgs, {
        stdout: ctx.stdout,
        stderr: ctx.stderr,
        env: ctx.env,
        cwd: ctx.cwd,
      }),
  });
}

export function registerSchedule(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "schedule",
    "Run an lms-export command on a cron schedule, one run at a time",
    scheduleBuilder,
    (argv) => scheduleHandler(argv, ctx),
  );
}
