/**
 * --mail-failures-to (LMS_MAIL_FAILURES_TO, mail.failuresTo) for `run` and `report`, and from the
 * environment or the config file only for `extract`, `publish`, `roster import` and `apply`
 * (which take no mail flags): when the command fails, the addresses get one short message with
 * its last line. The addresses and the mail server are checked with the command's other
 * settings, before anything runs, so a typo is found when the job is set up rather than on the
 * day it fails. A run stopped by a signal is not
 * a failure to report: whoever stopped it knows.
 */
import { resolveConfig } from "../config/resolve.js";
import { streamIsTTY } from "../log/color.js";
import { createRedactor } from "../log/redact.js";
import { parseAddressList } from "../mail/address.js";
import { tellFailure } from "../mail/failure-notice.js";
import type { MailSettings } from "../mail/settings.js";
import { shellWord } from "../text/shell-word.js";
import { type CommandSetup, commandLogger, type SettingsHook } from "./command-setup.js";
import type { CliContext } from "./context.js";
import { exitCodeOf, failureLine } from "./exit-codes.js";
import { mailServerOf } from "./mail-step.js";

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
 * reads the mail settings (the password into the command's secrets); a bad-input error for any
 * problem, so that a command finds it before it starts its work.
 */
export async function failureNoticeTarget(
  setup: CommandSetup,
  ctx: CliContext,
  command: string,
): Promise<FailureNoticeTarget | undefined> {
  const { config, logger, secrets } = setup;
  if (config.mailFailuresTo === undefined) return undefined;
  const to = parseAddressList(config.mailFailuresTo, config.sources.mailFailuresTo);
  const server = await mailServerOf(setup, ctx);
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
  options: { configFile?: false } = {},
): Promise<FailureNoticeTarget | undefined> {
  const isTTY = streamIsTTY(ctx.stderr);
  const configPath = options.configFile === false ? { configPath: false as const } : {};
  const config = await resolveConfig({ flags, env: ctx.env, cwd: ctx.cwd, isTTY, ...configPath });
  const secrets: string[] = [];
  const logger = commandLogger(config, ctx, secrets);
  return failureNoticeTarget({ config, logger, secrets }, ctx, command);
}

/**
 * The recipients of an `--all-portals` batch, read from its own settings before it starts, for
 * `withFailureNotice`. Settings that do not read (a config file someone broke) are the batch's
 * failure: they are told to the recipients the environment and flags alone name, as FailureNotice
 * tells them, before the failure goes on.
 */
export async function batchNoticeTarget(
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  command: string,
): Promise<FailureNoticeTarget | undefined> {
  try {
    return await failureNoticeTargetOf(flags, ctx, command);
  } catch (error) {
    const alone = () =>
      failureNoticeTargetOf(flags, ctx, command, { configFile: false }).catch(() => undefined);
    return withFailureNotice(ctx, alone, () => Promise.reject(error));
  }
}

/**
 * The recipients of a command that reads its settings once, in its own setup: `settled` (the
 * setup's hook) reads them there, before the setup's next step (the API key) can fail, and
 * `run` tells them if the work fails after that. Reading the settings a second time for the
 * notice would read a password twice: a pipe's (`<(pass smtp)`) has nothing left the second time.
 */
export class FailureNotice {
  private target: FailureNoticeTarget | undefined;
  private read = false;

  constructor(
    private readonly ctx: CliContext,
    private readonly command: string,
    private readonly flags: Readonly<Record<string, unknown>>,
  ) {}

  /** The recipients, once the setup has read them; the mail server's settings with them. */
  get told(): FailureNoticeTarget | undefined {
    return this.target;
  }

  readonly settled: SettingsHook = async (setup) => {
    this.read = true;
    this.target = await failureNoticeTarget(setup, this.ctx, this.command);
  };

  run<T>(work: () => Promise<T>): Promise<T> {
    return withFailureNotice(this.ctx, () => this.target ?? this.withoutSettings(), work);
  }

  /** When the command failed before its settings were read: see recipientsWithoutSettings. */
  private async withoutSettings(): Promise<FailureNoticeTarget | undefined> {
    if (this.read) return undefined;
    return recipientsWithoutSettings(this.flags, this.ctx, this.command);
  }
}

/**
 * The recipients of a command (run with `flags`) that failed before its settings were read: those
 * and the mail server of the top-level settings (a `--portal` name not in the config file), else
 * of the environment and flags alone (a config file someone broke, the commonest reason), if they
 * name any: a scheduled job still tells someone that its settings went wrong. `schedule` asks the
 * same to know whether such a run told anyone.
 */
export async function recipientsWithoutSettings(
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  command: string,
): Promise<FailureNoticeTarget | undefined> {
  const topLevel = { ...flags, portal: undefined };
  const target = await failureNoticeTargetOf(topLevel, ctx, command).catch(() => undefined);
  if (target !== undefined) return target;
  return failureNoticeTargetOf(topLevel, ctx, command, { configFile: false }).catch(
    () => undefined,
  );
}

/** `lms-export WORDS`, each word quoted for a shell: how a notice names the command. */
export function noticeCommandName(words: readonly string[]): string {
  return ["lms-export", ...words.map(shellWord)].join(" ");
}

/** `lms-export COMMAND [--portal NAME | --all-portals]`: which portal's it was says most. */
export function portalCommandName(
  command: string,
  args: { portal?: string | undefined; allPortals?: boolean | undefined },
): string {
  const which =
    args.portal !== undefined
      ? ["--portal", args.portal]
      : args.allPortals
        ? ["--all-portals"]
        : [];
  return noticeCommandName([command, ...which]);
}

/**
 * Runs `work`; when it fails (not by a signal) and `told` names recipients (or answers them,
 * when they are read during the work), tells them before the failure goes on to the CLI's edge,
 * unchanged. A notice that cannot be sent is logged as a warning: the command's own failure is
 * what the exit code says.
 */
export async function withFailureNotice<T>(
  ctx: CliContext,
  recipients:
    | FailureNoticeTarget
    | undefined
    | (() => Promise<FailureNoticeTarget | undefined> | FailureNoticeTarget | undefined),
  work: () => Promise<T>,
): Promise<T> {
  const started = new Date();
  try {
    return await work();
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const told = typeof recipients === "function" ? await recipients() : recipients;
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
