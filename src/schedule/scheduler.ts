/**
 * The scheduler: runs a command at each tick of a cron expression, never two at once, and stops
 * cleanly on its signal (the running run gets SIGTERM, then SIGKILL after a grace period). The
 * clock, the ticker and how a run starts are injected, so tests drive it without waiting.
 */
import { once } from "node:events";
import { Cron } from "croner";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { Logger } from "../log/logger.js";
import { type ChildRun, displayCommand, type RunOutcome, spawnCliRun } from "./spawn-run.js";

export type { ChildRun, RunOutcome } from "./spawn-run.js";

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
  /**
   * What to fix, for the log line of a run that failed (exit code other than 0), when its own
   * error line does not say it: only the command line knows where the runs' settings come from.
   * Default: no hint.
   */
  failureHint?: (outcome: RunOutcome) => Promise<string | undefined>;
  /**
   * Called once a failed run (not one the schedule stopped) is logged, with when it started: for
   * telling someone what the run itself could not (it was killed). Its failure is ignored.
   */
  onFailure?: (outcome: RunOutcome, startedAt: Date) => Promise<void>;
}

/** What happened while the schedule ran. */
export interface ScheduleSummary {
  runs: number;
  failed: number;
  /** Runs that ended because the schedule stopped them (not counted as failed). */
  stopped: number;
  skipped: number;
}

// Long enough for an extract to finish its merge transaction after SIGTERM, short enough that
// a service manager's own stop timeout (systemd: 90 s) is not reached first.
const DEFAULT_STOP_GRACE_MS = 60_000;

/** The forms of --cron accepted, as --help and the README give them. */
const CRON_FORM =
  'use 5 fields "minute hour day month weekday" (or 6 with seconds first), e.g. "0 6 * * 1" for Mondays at 06:00';

/**
 * croner also takes a seventh field (the year) and nicknames such as "@daily"; neither is
 * documented, and a year field makes a schedule that silently stops running once it has passed.
 * Only 5 fields, or 6 with seconds first, are let through.
 */
function checkFieldCount(cron: string): void {
  const fields = cron.trim() === "" ? 0 : cron.trim().split(/\s+/).length;
  if (fields === 5 || fields === 6) return;
  throw new LmsExportError(
    "bad-input",
    `invalid --cron expression "${cron}": it has ${fields} field${fields === 1 ? "" : "s"}; ${CRON_FORM}`,
  );
}

/**
 * Checks a cron expression and time zone and answers the first run time after now.
 * Contract: a one-line bad-input error for an expression of other than 5 or 6 fields, a bad
 * expression, an unknown time zone, or an expression that never matches.
 */
export function checkCron(cron: string, timezone?: string): Date {
  if (timezone !== undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    } catch {
      throw new LmsExportError(
        "bad-input",
        `unknown time zone "${timezone}" for --timezone: use an IANA name such as Europe/Berlin or UTC`,
      );
    }
  }
  checkFieldCount(cron);
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
    throw new LmsExportError(
      "bad-input",
      `invalid --cron expression "${cron}"${detail === "" ? "" : ` (${detail})`}: ${CRON_FORM}`,
    );
  }
  if (next === null) {
    throw new LmsExportError(
      "bad-input",
      `the --cron expression "${cron}" never matches a future time: check it`,
    );
  }
  return next;
}

/** The run going on; `done` settles once its outcome is logged. */
interface CurrentRun {
  run: ChildRun;
  number: number;
  startedAt: number;
  done: Promise<void>;
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
  const summary: ScheduleSummary = { runs: 0, failed: 0, stopped: 0, skipped: 0 };
  const command = displayCommand(args);
  if (signal.aborted) return summary;

  let current: CurrentRun | undefined;
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
    const done = run.exited.then(async (outcome) => {
      const ended = { run: number, outcome, durationMs: now() - startedAt };
      // Before the run is over for the ticker: its outcome is logged before a next run starts.
      const hint = await hintOf(options, outcome, stopping);
      current = undefined;
      const nextRun = stopping ? undefined : nextRunText();
      logOutcome(logger, summary, { ...ended, nextRun, stopping, hint });
      if (outcome.exitCode !== 0 && !stopping) {
        await options.onFailure?.(outcome, new Date(startedAt)).catch(() => undefined);
      }
    });
    current = { run, number, startedAt, done };
  };

  const stopped = once(signal, "abort");
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
  if (current !== undefined) {
    await stopRun(current, logger, options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
  }
  logger.info("schedule stopped", { ...summary });
  return summary;
}

/** The hint of a run that failed (see ScheduleOptions.failureHint); none once stopping. */
async function hintOf(
  options: ScheduleOptions,
  outcome: RunOutcome,
  stopping: boolean,
): Promise<string | undefined> {
  if (outcome.exitCode === 0 || stopping || options.failureHint === undefined) return undefined;
  // A hint that cannot be found is left out: the run's outcome is still logged.
  return options.failureHint(outcome).catch(() => undefined);
}

/**
 * Logs how a run ended and counts it as failed unless it exited with 0, or ended while the
 * schedule was stopping it: a service restart is not a failure, and an error line would page
 * someone. Such a run is stopped whatever its exit code (logged with it): one that exits 0 on
 * SIGTERM (a simulate, a command at its end) did not run to its end, and "succeeded" would say
 * it had. Once stopping there is no next run to announce.
 */
function logOutcome(
  logger: Logger,
  summary: ScheduleSummary,
  ended: {
    run: number;
    outcome: RunOutcome;
    durationMs: number;
    nextRun: string | undefined;
    stopping: boolean;
    hint: string | undefined;
  },
): void {
  const { outcome } = ended;
  const fields = {
    run: ended.run,
    exitCode: outcome.exitCode,
    ...(outcome.signal === null ? {} : { signal: outcome.signal }),
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    durationMs: ended.durationMs,
    ...(ended.nextRun === undefined ? {} : { nextRun: ended.nextRun }),
    ...(ended.hint === undefined ? {} : { hint: ended.hint }),
  };
  if (ended.stopping) {
    summary.stopped += 1;
    logger.warn("run stopped: the schedule is stopping", fields);
  } else if (outcome.exitCode === 0) {
    logger.info("run succeeded", fields);
  } else {
    summary.failed += 1;
    logger.error("run failed", fields);
  }
}

/** Asks `running` to end with SIGTERM, kills it if it has not after `graceMs`, and waits for it. */
async function stopRun(running: CurrentRun, logger: Logger, graceMs: number): Promise<void> {
  logger.info("stopping: asking the running run to end and waiting for it", {
    run: running.number,
  });
  running.run.kill("SIGTERM");
  const grace = setTimeout(() => {
    logger.warn("the running run did not end after SIGTERM: killing it", { run: running.number });
    running.run.kill("SIGKILL");
  }, graceMs);
  await running.done;
  clearTimeout(grace);
}

/** A ticker driven by croner. */
function cronTicker(cron: string, timezone: string | undefined, onTick: () => void): Ticker {
  const job = new Cron(cron, { timezone }, () => {
    onTick();
  });
  return { nextRun: () => job.nextRun(), stop: () => job.stop() };
}
