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
import { shellWord } from "../text/shell-word.js";
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
 * Undefined when the settings of `setup` name no failure recipients. Otherwise checks them and
 * the mail settings (those the mail step resolved, `settings`, else read here, the password into
 * the command's secrets); a bad-input error for any problem, so that a command finds it before it
 * starts its work.
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
 * {@link failureNoticeTarget} for a command that must know its recipients before its own setup
 * reads the settings (`run` and `extract`, whose setup then reads the API key, a failure worth
 * telling): the settings of `flags` read here.
 */
export async function failureNoticeTargetOf(
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  command: string,
): Promise<FailureNoticeTarget | undefined> {
  const isTTY = streamIsTTY(ctx.stderr);
  const config = await resolveConfig({ flags, env: ctx.env, cwd: ctx.cwd, isTTY });
  const secrets: string[] = [];
  const logger = commandLogger(config, ctx, secrets);
  return failureNoticeTarget({ config, logger, secrets }, ctx, command);
}

/** `lms-export WORDS`, each word quoted for a shell: how a notice names the command. */
export function noticeCommandName(words: readonly string[]): string {
  return ["lms-export", ...words.map(shellWord)].join(" ");
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
