/**
 * --mail-failures-to (LMS_MAIL_FAILURES_TO, mail.failuresTo) for `run` and `report`: when the
 * command fails, the addresses get one short message with its last line. The addresses and the
 * mail server are checked with the command's other settings, before anything runs, so a typo is
 * found when the job is set up rather than on the day it fails. A run stopped by a signal is not
 * a failure to report: whoever stopped it knows.
 */

import { createRedactor } from "../log/redact.js";
import { parseAddressList } from "../mail/address.js";
import { sendFailureNotice } from "../mail/failure-notice.js";
import { type MailSettings, resolveMailSettings } from "../mail/settings.js";
import type { CommandSetup } from "./command-setup.js";
import type { CliContext } from "./context.js";
import { exitCodeOf, failureLine } from "./exit-codes.js";

/** Whom to tell, through which server. */
export interface FailureNoticeTarget {
  to: string[];
  settings: MailSettings;
  /** The command as a user would name it. */
  command: string;
  /** The command's secrets (redacted from the notice), as they grow. */
  secrets: readonly string[];
  logger: CommandSetup["logger"];
}

/**
 * Undefined when no failure recipients are set. Otherwise checks them and the mail settings,
 * reading the password into the command's secrets (`settings`: those the mail step resolved
 * already, if it did); a bad-input error for any problem.
 */
export async function failureNoticeTarget(
  setup: CommandSetup,
  ctx: CliContext,
  command: string,
  settings?: MailSettings,
): Promise<FailureNoticeTarget | undefined> {
  const { config, logger, secrets } = setup;
  if (config.mailFailuresTo === undefined) return undefined;
  const to = parseAddressList(config.mailFailuresTo, config.sources.mailFailuresTo);
  const server =
    settings ?? (await resolveMailSettings(config, ctx.env, { logger, signal: ctx.signal }));
  if (server.password !== undefined && !secrets.includes(server.password)) {
    secrets.push(server.password);
  }
  return { to, settings: server, command, secrets, logger };
}

/**
 * Runs `work`; when it fails (not by a signal) and `target()` names recipients, tells them
 * before the failure goes on to the CLI's edge, unchanged. A notice that cannot be sent is
 * logged as a warning: the command's own failure is what the exit code says.
 */
export async function withFailureNotice<T>(
  ctx: CliContext,
  target: () => FailureNoticeTarget | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const started = new Date();
  try {
    return await work();
  } catch (error) {
    const to = target();
    if (to !== undefined && !ctx.signal.aborted) await tell(to, ctx, started, error);
    throw error;
  }
}

async function tell(
  target: FailureNoticeTarget,
  ctx: CliContext,
  started: Date,
  error: unknown,
): Promise<void> {
  const redact = createRedactor(() => target.secrets);
  const failed = {
    command: target.command,
    cwd: ctx.cwd,
    started,
    failed: new Date(),
    reason: redact.text(failureLine(error)),
    exitCode: exitCodeOf(error),
  };
  const problem = await sendFailureNotice(target.settings, target.to, failed, target.logger).catch(
    (caught: unknown) => (caught instanceof Error ? caught.message : String(caught)),
  );
  const who = target.to.join(", ");
  if (problem === undefined) target.logger.info(`told ${who} of the failure by mail`);
  else target.logger.warn(`could not tell ${who} of the failure by mail: ${redact.text(problem)}`);
}
