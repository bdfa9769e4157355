/**
 * --mail-failures-to (LMS_MAIL_FAILURES_TO, mail.failuresTo) for `run` and `report`: when the
 * command fails, the addresses get one short message with its last line. The addresses and the
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
 * The target of a command that failed before it read its settings through to the mail server (a
 * `run` whose API key file is gone fails so, every week, the commonest failure of a scheduled
 * job): the settings read again, without a word; undefined when they cannot be.
 */
export async function failureNoticeTargetFromFlags(
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  command: string,
): Promise<FailureNoticeTarget | undefined> {
  try {
    const isTTY = streamIsTTY(ctx.stderr);
    const config = await resolveConfig({ flags, env: ctx.env, cwd: ctx.cwd, isTTY });
    if (config.mailFailuresTo === undefined) return undefined;
    const secrets: string[] = [];
    const logger = commandLogger(config, ctx, secrets);
    return await failureNoticeTarget({ config, logger, secrets }, ctx, command);
  } catch {
    // A setting that cannot be read is what the command's own error line is about.
    return undefined;
  }
}

/**
 * Runs `work`; when it fails (not by a signal) and `target()` names recipients, tells them
 * before the failure goes on to the CLI's edge, unchanged. A notice that cannot be sent is
 * logged as a warning: the command's own failure is what the exit code says.
 */
export async function withFailureNotice<T>(
  ctx: CliContext,
  target: () => Promise<FailureNoticeTarget | undefined>,
  work: () => Promise<T>,
): Promise<T> {
  const started = new Date();
  try {
    return await work();
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const told = await target();
    if (told !== undefined) {
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
