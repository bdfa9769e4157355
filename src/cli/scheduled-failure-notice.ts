/**
 * What `schedule` tells the failure recipients (--mail-failures-to) of its `run`, `report`,
 * `extract`, `publish` or `roster import` when the run could not tell them itself: it was killed
 * outright (SIGKILL from the out-of-memory killer or `kill -9`, a crash by a signal) or never
 * started, or it failed because its settings no longer read (a config file someone broke while
 * the schedule runs), so that it knew nobody to tell. A run that exits with a code and could read
 * its settings has said its own failure, and told them if it could (failure-notice-step.ts).
 */
import { hostname } from "node:os";
import type { ResolvedConfig } from "../config/resolve.js";
import { createRedactor } from "../log/redact.js";
import { tellFailure } from "../mail/failure-notice.js";
import type { RunOutcome } from "../schedule/scheduler.js";
import { commandLogger } from "./command-setup.js";
import type { CliContext } from "./context.js";
import { failureLine } from "./exit-codes.js";
import {
  type FailureNoticeTarget,
  failureNoticeTarget,
  failureNoticeTargetOf,
  noticeCommandName,
  recipientsWithoutSettings,
} from "./failure-notice-step.js";
import type { CheckCommandLine } from "./scheduled-command.js";

/** The schedulable commands that take failure recipients. */
const TELLING = new Set(["run", "report", "extract", "publish", "roster"]);

/** `lms-export run weekly-compliance`: the command and its names, up to the first option. */
function commandName(args: readonly string[]): string {
  const end = args.findIndex((word) => word.startsWith("-"));
  return noticeCommandName(end === -1 ? args : args.slice(0, end));
}

/** Why a run killed by a signal, or never started, said nothing itself. */
function reasonOf(outcome: RunOutcome): string {
  if (outcome.signal !== null) {
    return `the run was ended by ${outcome.signal} before it could say why (the system's out-of-memory killer ends a process so, as does kill -9; ${hostname()}'s system log says which); the database and reports are as they were or as far as it got, and the next run takes up from there`;
  }
  return `the run could not be started: ${outcome.error ?? "no reason given"}`;
}

/** The recipients the settings read now name, or why those settings cannot be read. */
type NowRead = { target: FailureNoticeTarget | undefined } | { unread: unknown };

/**
 * The recipients and mail server the schedule read when it started (`started`), the password
 * read now: for a run whose settings no longer read. Undefined when they named none.
 */
async function startingTarget(
  started: ResolvedConfig | undefined,
  ctx: CliContext,
  command: string,
): Promise<FailureNoticeTarget | undefined> {
  if (started?.mailFailuresTo === undefined) return undefined;
  const secrets: string[] = [];
  const logger = commandLogger(started, ctx, secrets);
  return failureNoticeTarget({ config: started, logger, secrets }, ctx, command).catch(() => {
    logger.warn("could not read the mail settings the schedule started with to tell of a failure");
    return undefined;
  });
}

/**
 * The schedule's onFailure for the runs of `args` started in `ctx` (the runs' environment and
 * folder): tells the recipients the run's settings name, read anew, as the run would; when those
 * no longer read, the recipients of the settings the schedule checked when it started
 * (`started`), since every run fails so, unheard, until someone mends them.
 */
export function scheduledFailureNotice(
  args: readonly string[],
  ctx: CliContext,
  checkCommandLine: CheckCommandLine,
  started?: ResolvedConfig,
): (outcome: RunOutcome, began: Date) => Promise<void> {
  return async (outcome, began) => {
    if (!TELLING.has(args[0] ?? "")) return;
    const command = commandName(args);
    const flags = await checkCommandLine(args, ctx);
    const now: NowRead = await failureNoticeTargetOf(flags, ctx, command).then(
      (target) => ({ target }),
      (unread: unknown) => ({ unread }),
    );
    let target: FailureNoticeTarget | undefined;
    let reason: string;
    if (outcome.exitCode === null) {
      target = "target" in now ? now.target : await startingTarget(started, ctx, command);
      reason = reasonOf(outcome);
    } else {
      // A run that read its settings, or found recipients without them, told them itself.
      if ("target" in now || (await recipientsWithoutSettings(flags, ctx, command))) return;
      target = await startingTarget(started, ctx, command);
      reason = unreadReason(outcome.exitCode, now.unread, target);
    }
    if (target === undefined) return;
    const failed = { command, cwd: ctx.cwd, started: began, failed: new Date(), reason };
    await tellFailure(
      target.settings,
      target.to,
      { ...failed, ended: endedOf(outcome) },
      target.logger,
    );
  };
}

/** How the run ended, as a notice names it. */
function endedOf(outcome: RunOutcome): string {
  if (outcome.exitCode !== null) return `exit ${outcome.exitCode}`;
  return outcome.signal ?? "not started";
}

/** Why a run that exited with `code` told nobody: its settings did not read (`error`). */
function unreadReason(
  code: number,
  error: unknown,
  target: FailureNoticeTarget | undefined,
): string {
  const line = createRedactor(() => target?.secrets ?? []).text(failureLine(error));
  return `the run failed (exit ${code}) and could not tell anyone itself, as its settings no longer read: ${line}; every run fails so until they are mended (these recipients and mail server are the ones the schedule read when it started)`;
}
