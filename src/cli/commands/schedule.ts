/**
 * `lms-export schedule --cron "EXPR" [--timezone TZ] [--run-now] -- COMMAND...`
 *
 * Runs another lms-export command at each cron tick, each run a child process of this same CLI,
 * so a crash or a leak in one run cannot take the scheduler down with it, and each run opens and
 * closes the database like a run from cron(8) would. Runs never overlap: a tick that finds the
 * previous run still going is skipped and logged. SIGTERM/SIGINT stop the scheduler cleanly: no
 * new run starts, the running child gets SIGTERM and is waited for, then the command returns 0.
 */
import { spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Cron } from "croner";
import type { Argv } from "yargs";
import { UsageError } from "../../cli-error.js";
import { resolveConfig } from "../../config/resolve.js";
import { createCliLogger } from "../../log/cli-logger.js";
import { streamIsTTY } from "../../log/color.js";
import type { Logger } from "../../log/logger.js";
import { didYouMean } from "../../report/suggest-name.js";
import { loadCatalogFor } from "../catalog-option.js";
import type { CliContext } from "../context.js";
import { withConfigOption, withLogOptions } from "../options.js";
import { checkScheduledMail } from "../scheduled-mail-check.js";

/** How one run ended. */
export interface RunOutcome {
  /** The exit code, or null when the process ended by a signal or never started. */
  exitCode: number | null;
  /** The signal that ended it, if any. */
  signal: string | null;
  /** Why it could not start (e.g. ENOENT), if it could not. */
  error?: string;
}

/** One started run of the scheduled command. */
export interface ChildRun {
  /** Resolves (never rejects) once the run has ended. */
  readonly exited: Promise<RunOutcome>;
  /** Sends a signal to the run (SIGTERM to ask it to stop, SIGKILL to end it). */
  kill(signal: NodeJS.Signals): void;
}

/** Starts one run with the lms-export arguments given after `--`. */
export type StartRun = (args: readonly string[]) => ChildRun;

/** The clock that decides when runs happen. */
export interface Ticker {
  /** The next tick, or null if there is none. */
  nextRun(): Date | null;
  /** No tick after this. */
  stop(): void;
}

/** Starts a ticker that calls `onTick` at each tick. */
export type StartTicker = (onTick: () => void) => Ticker;

/** What runSchedule needs; the run starter, ticker and clock are replaceable for tests. */
export interface ScheduleOptions {
  /** Cron expression (5 fields, or 6 with seconds first), already checked by checkCron. */
  cron: string;
  /** IANA time zone the expression is read in; default the machine's. */
  timezone?: string;
  /** Start one run immediately as well. */
  runNow?: boolean;
  /** lms-export arguments for each run, e.g. ["run", "weekly-compliance"]. */
  args: readonly string[];
  logger: Logger;
  /** Aborting it stops the schedule (see the module comment). */
  signal: AbortSignal;
  /** Default: a child process of this CLI (spawnCliRun). */
  startRun?: StartRun;
  /** Default: croner with `cron` and `timezone`. */
  startTicker?: StartTicker;
  /** Milliseconds clock for run durations; default Date.now. */
  now?: () => number;
  /** After SIGTERM, how long a run may take to end before it gets SIGKILL; default 60 s. */
  stopGraceMs?: number;
}

/** What happened while the schedule ran. */
export interface ScheduleSummary {
  runs: number;
  failed: number;
  skipped: number;
}

// Long enough for an extract to finish its merge transaction after SIGTERM, short enough that
// a service manager's own stop timeout (systemd: 90 s) is not reached first.
const DEFAULT_STOP_GRACE_MS = 60_000;

/** The CLI's launcher, found from this module's place in src/ or dist/. */
export const CLI_BIN_PATH = fileURLToPath(new URL("../../../bin/lms-export.js", import.meta.url));

/**
 * Checks a cron expression and time zone and answers the first run time after now.
 * Contract: a one-line UsageError for a bad expression, an unknown time zone, or an expression
 * that never matches.
 */
export function checkCron(cron: string, timezone?: string): Date {
  if (timezone !== undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    } catch {
      throw new UsageError(
        `unknown time zone "${timezone}" for --timezone: use an IANA name such as Europe/Berlin or UTC`,
      );
    }
  }
  let next: Date | null;
  try {
    const job = new Cron(cron, { paused: true, timezone });
    next = job.nextRun();
    job.stop();
  } catch (error) {
    // croner repeats the pattern in its message; it is already quoted once here.
    const detail =
      error instanceof Error
        ? error.message
            .replace(/^CronPattern: /, "")
            .replace(` ('${cron}')`, "")
            .replace(/\.$/, "")
        : "";
    throw new UsageError(
      `invalid --cron expression "${cron}"${detail === "" ? "" : ` (${detail})`}: use 5 fields "minute hour day month weekday", e.g. "0 6 * * 1" for Mondays at 06:00`,
    );
  }
  if (next === null) {
    throw new UsageError(`the --cron expression "${cron}" never matches a future time: check it`);
  }
  return next;
}

/**
 * Runs `args` at each tick until `signal` aborts, then stops as the module comment says and
 * answers what happened. Logs one line when it starts (with the next run time), one when each run
 * starts, one per run with its outcome (exit code, duration), one per skipped tick, one at the end.
 */
export async function runSchedule(options: ScheduleOptions): Promise<ScheduleSummary> {
  const { logger, signal, args } = options;
  const now = options.now ?? Date.now;
  const startRun = options.startRun ?? ((a) => spawnCliRun(a));
  const startTicker =
    options.startTicker ?? ((onTick) => cronTicker(options.cron, options.timezone, onTick));
  const summary: ScheduleSummary = { runs: 0, failed: 0, skipped: 0 };
  const command = displayCommand(args);
  if (signal.aborted) return summary;

  let current:
    | { run: ChildRun; number: number; startedAt: number; done: Promise<void> }
    | undefined;
  let stopping = false;
  let ticker: Ticker | undefined;
  const nextRunText = () => ticker?.nextRun()?.toISOString() ?? "none";

  const tick = (): void => {
    if (stopping) return;
    if (current !== undefined) {
      summary.skipped += 1;
      logger.warn("run skipped: the previous run is still going", {
        running: current.number,
        runningForMs: now() - current.startedAt,
        nextRun: nextRunText(),
      });
      return;
    }
    summary.runs += 1;
    const number = summary.runs;
    const startedAt = now();
    logger.info("run started", { run: number, command });
    const run = startRun(args);
    const done = run.exited.then((outcome) => {
      current = undefined;
      const fields = {
        run: number,
        exitCode: outcome.exitCode,
        ...(outcome.signal === null ? {} : { signal: outcome.signal }),
        ...(outcome.error === undefined ? {} : { error: outcome.error }),
        durationMs: now() - startedAt,
        ...(stopping ? {} : { nextRun: nextRunText() }),
        // Exit code 2 is bad usage: every later run will fail the same way until it is fixed.
        ...(outcome.exitCode === 2 ? { hint: "check the command given after --" } : {}),
      };
      if (outcome.exitCode === 0) {
        logger.info("run succeeded", fields);
      } else {
        summary.failed += 1;
        logger.error("run failed", fields);
      }
    });
    current = { run, number, startedAt, done };
  };

  const stopped = new Promise<void>((resolve) => {
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
  ticker = startTicker(tick);
  logger.info("schedule started", {
    cron: options.cron,
    timezone: options.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    command,
    nextRun: nextRunText(),
  });
  if (options.runNow === true) tick();

  await stopped;
  stopping = true;
  ticker.stop();
  const running = current;
  if (running !== undefined) {
    logger.info("stopping: asking the running run to end and waiting for it", {
      run: running.number,
    });
    running.run.kill("SIGTERM");
    const grace = setTimeout(() => {
      logger.warn("the running run did not end after SIGTERM: killing it", { run: running.number });
      running.run.kill("SIGKILL");
    }, options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
    await running.done;
    clearTimeout(grace);
  }
  logger.info("schedule stopped", { ...summary });
  return summary;
}

/** A ticker driven by croner. */
function cronTicker(cron: string, timezone: string | undefined, onTick: () => void): Ticker {
  const job = new Cron(cron, { timezone }, () => {
    onTick();
  });
  return { nextRun: () => job.nextRun(), stop: () => job.stop() };
}

/** Where a run's output goes: this process's own streams are shared, others get a pipe. */
export interface RunStreams {
  stdout: Writable;
  stderr: Writable;
  env: Readonly<Record<string, string | undefined>>;
  cwd?: string;
}

/**
 * Starts `file args...` as a child process. Default `file`/`args`: this CLI run by the same Node
 * (process.execPath + CLI_BIN_PATH + `args`), so the schedule runs the same version it is.
 */
export function spawnCliRun(
  args: readonly string[],
  streams: RunStreams = { stdout: process.stdout, stderr: process.stderr, env: process.env },
  command: { file: string; args: readonly string[] } = {
    file: process.execPath,
    args: [CLI_BIN_PATH, ...args],
  },
): ChildRun {
  const outInherit = streams.stdout === process.stdout;
  const errInherit = streams.stderr === process.stderr;
  const child = spawn(command.file, [...command.args], {
    cwd: streams.cwd,
    env: { ...streams.env },
    stdio: ["ignore", outInherit ? "inherit" : "pipe", errInherit ? "inherit" : "pipe"],
  });
  child.stdout?.pipe(streams.stdout, { end: false });
  child.stderr?.pipe(streams.stderr, { end: false });
  const exited = new Promise<RunOutcome>((resolve) => {
    child.once("error", (error) => resolve({ exitCode: null, signal: null, error: error.message }));
    // "close", not "exit": the run's last output lines have been passed on by then.
    child.once("close", (code, signalName) => resolve({ exitCode: code, signal: signalName }));
  });
  return {
    exited,
    kill: (signalName) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signalName);
    },
  };
}

/** The command as a log shows it, with any value given to --api-key hidden. */
export function displayCommand(args: readonly string[]): string {
  const shown: string[] = [];
  let hideNext = false;
  for (const arg of args) {
    if (hideNext) {
      shown.push("[redacted]");
      hideNext = false;
    } else if (/^--api-key=/.test(arg)) {
      shown.push("--api-key=[redacted]");
    } else {
      shown.push(arg);
      hideNext = arg === "--api-key";
    }
  }
  return ["lms-export", ...shown].join(" ");
}

/** The lms-export arguments given after `--`. */
function commandArgs(argv: Readonly<Record<string, unknown>>): string[] {
  const afterDashes = argv["--"];
  const positional = Array.isArray(afterDashes) ? afterDashes : [];
  const args = positional.map((value) => String(value));
  // "-- lms-export run x" means the same as "-- run x".
  if (args[0] === "lms-export") args.shift();
  if (args.length === 0) {
    throw new UsageError(
      'name the command to run after --, e.g. lms-export schedule --cron "0 6 * * 1" -- run weekly-compliance',
    );
  }
  if (args[0] === "schedule") {
    throw new UsageError("schedule cannot run schedule: name the command to run after --");
  }
  // A flag first (--version) is lms-export's own option, not a command.
  if (!args[0]?.startsWith("-") && !SCHEDULABLE.includes(args[0] ?? "")) {
    throw new UsageError(
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
    throw new UsageError(
      `unknown report or query "${name}" in the command after --${didYouMean(name, [...catalog.reports.keys(), ...catalog.queries.keys()])}; \`lms-export list\` shows the names`,
    );
  }
}

export function registerSchedule(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "schedule",
    "Run an lms-export command on a cron schedule, one run at a time",
    (y) =>
      withLogOptions(withConfigOption(y))
        .parserConfiguration({ "populate--": true })
        .usage('$0 schedule --cron "EXPR" [--timezone TZ] [--run-now] -- COMMAND...')
        .option("cron", {
          type: "string",
          demandOption: true,
          description:
            'When to run: "minute hour day month weekday" (or 6 fields with seconds first)',
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
        ),
    async (argv) => {
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
    },
  );
}
