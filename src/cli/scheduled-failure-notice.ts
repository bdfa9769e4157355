/**
 * What `schedule` tells the failure recipients (--mail-failures-to) of its `run`, `report`,
 * `extract`, `publish` or `roster import` when the run could not tell them itself: it was killed
 * outright (SIGKILL from the out-of-memory killer or `kill -9`, a crash by a signal) or never
 * started. A run that exits with a code has
 * said its own failure, and told them if it could (failure-notice-step.ts).
 */
import { hostname } from "node:os";
import { tellFailure } from "../mail/failure-notice.js";
import type { RunOutcome } from "../schedule/scheduler.js";
import type { CliContext } from "./context.js";
import { failureNoticeTargetOf, noticeCommandName } from "./failure-notice-step.js";
import type { CheckCommandLine } from "./scheduled-command.js";

/** The schedulable commands that take failure recipients. */
const TELLING = new Set(["run", "report", "extract", "publish", "roster"]);

/** `lms-export run weekly-compliance`: the command and its names, up to the first option. */
function commandName(args: readonly string[]): string {
  const end = args.findIndex((word) => word.startsWith("-"));
  return noticeCommandName(end === -1 ? args : args.slice(0, end));
}

/** Why the run said nothing itself. */
function reasonOf(outcome: RunOutcome): string {
  if (outcome.signal !== null) {
    return `the run was ended by ${outcome.signal} before it could say why (the system's out-of-memory killer ends a process so, as does kill -9; ${hostname()}'s system log says which); the database and reports are as they were or as far as it got, and the next run takes up from there`;
  }
  return `the run could not be started: ${outcome.error ?? "no reason given"}`;
}

/**
 * The schedule's onFailure for the runs of `args` started in `ctx` (the runs' environment and
 * folder): tells the recipients the run's settings name, read anew, as the run would.
 */
export function scheduledFailureNotice(
  args: readonly string[],
  ctx: CliContext,
  checkCommandLine: CheckCommandLine,
): (outcome: RunOutcome, started: Date) => Promise<void> {
  return async (outcome, started) => {
    if (outcome.exitCode !== null || !TELLING.has(args[0] ?? "")) return;
    const command = commandName(args);
    // Settings that cannot be read now are the next run's error to say.
    const flags = await checkCommandLine(args, ctx);
    const target = await failureNoticeTargetOf(flags, ctx, command).catch(() => undefined);
    if (target === undefined) return;
    const failed = {
      command,
      cwd: ctx.cwd,
      started,
      failed: new Date(),
      reason: reasonOf(outcome),
      ended: outcome.signal ?? "not started",
    };
    await tellFailure(target.settings, target.to, failed, target.logger);
  };
}
