/**
 * --mail-failures-to (LMS_MAIL_FAILURES_TO, mail.failuresTo) for `run`, `report` and `extract`
 * (which takes it from the environment or the config file only): when the command fails, the
 * addresses get one short message with its last line. The addresses and the
 * mail server are checked with the command's other settings, before anything runs, so a typo is
 * found when the job is set up rather than on the day it fails. A run stopped by a signal is not
 * a failure to report: whoever stopped it knows.
 */
import { resolveConfig } from "../config/resolve.js";
import { streamIsTTY } from "../log/color.js";
import { createRedactor } from "../log/redact.js";
import { parseAddressList } from "../mail/address.js";
import { tellFailure } from "../mail/failure-notice.js";
import { type MailSettings, resolveMailSettings } from "../mail/settings.js";
import { type CommandSetup, commandLogger } from "./command-setup.js";
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
 * Undefined when no failure recipients are set in `flags`, the environment or the config file.
 * Otherwise checks them and the mail settings (reading the password, into the target's secrets);
 * a bad-input error for any problem, so that a command finds it before it starts its work.
 */
export async function failureNoticeTargetOf(
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  command: string,
): Promise<FailureNoticeTarget | undefined> {
  const isTTY = streamIsTTY(ctx.stderr);
  const config = await resolveConfig({ flags, env: ctx.env, cwd: ctx.cwd, isTTY });
  if (config.mailFailuresTo === undefined) return undefined;
  const to = parseAddressList(config.mailFailuresTo, config.sources.mailFailuresTo);
  const secrets: string[] = [];
  const logger = commandLogger(config, ctx, secrets);
  const settings = await resolveMailSettings(config, ctx.env, { logger, signal: ctx.signal });
  if (settings.password !== undefined) secrets.push(settings.password);
  return { to, settings, command, secrets, logger };
}

/**
 * Runs `work`; when it fails (not by a signal) and `told` names recipients, tells them
 * before the failure goes on to the CLI's edge, unchanged. A notice that cannot be sent is
 * logged as a warning: the command's own failure is what the exit code says.
 */
export async function withFailureNotice<T>(
  ctx: CliContext,
  told: FailureNoticeTarget | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const started = new Date();
  try {
    return await work();
  } catch (error) {
    if (told !== undefined && !ctx.signal.aborted) {
      const redact = createRedactor(() => told.secrets);
      const failed = {
        command: told.command,
        cwd: ctx.cwd,
        started,
        failed: new Date(),
        reason: redact.text(failureLine(error)),
        ended: `exit ${exitCodeOf(error)}`,
      };
      await tellFailure(told.settings, told.to, failed, told.logger);
    }
    throw error;
  }
}
