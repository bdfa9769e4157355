/**
 * The mail step of `report` and `run`: settings and recipients checked before anything runs,
 * each report's mail planned before its files are written, and the messages sent after. A mail
 * problem never removes a written file; it makes the command fail (exit 1) once every message
 * was tried.
 */

import type { ResolvedConfig } from "../config/resolve.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { createRedactor } from "../log/redact.js";
import { parseAddressList } from "../mail/address.js";
import { checkSplitColumn, jobMail, type Recipients } from "../mail/job-mail.js";
import type { MailTarget } from "../mail/mail-only.js";
import {
  MailInterruptedError,
  type MailSoFar,
  type MailSummary,
  mailReports,
  type ReportToMail,
} from "../mail/mail-reports.js";
import { type MailSettings, resolveMailSettings } from "../mail/settings.js";
import { checkSplitManagerColumn } from "../mail/split-manager-column.js";
import type { ReportJob } from "../report/report-jobs.js";
import type { ReportSource } from "../report/report-source.js";
import type { ReportRunResult } from "../report/run-report.js";
import type { CommandSetup } from "./command-setup.js";
import type { CliContext } from "./context.js";
import { failureLine } from "./exit-codes.js";
import type { Words } from "./last-words.js";
import { mailOnlyTargets } from "./mail-only-option.js";
import { givenMailWords, reportCommandLine, resendCommands } from "./resend-command.js";

/**
 * What was asked: the server settings, --mail-to's addresses, the default recipients, and
 * what --mail-only picks (undefined: every message).
 */
export interface MailRequest extends Recipients {
  settings: MailSettings;
  secrets: readonly string[];
  only: MailTarget[] | undefined;
}

/** A password given as a flag is refused, whether or not the command mails. */
export function refuseSmtpPasswordFlag(args: Readonly<Record<string, unknown>>): void {
  if (args.smtpPassword !== undefined || args["smtp-password"] !== undefined) {
    throw new LmsExportError(
      "bad-input",
      "--smtp-password is not accepted: a password on the command line is visible to other users and kept in shell history; put it alone in a file and set LMS_SMTP_PASSWORD_FILE (or --smtp-password-file), or set LMS_SMTP_PASSWORD",
    );
  }
}

/**
 * Undefined when neither --mail nor --mail-to was given. Otherwise checks the addresses and the
 * server settings and reads the password (added to the redacted secrets at once), unless the
 * settings are `known` (read already, for the failure notice); every problem is a bad-input
 * error before anything runs.
 */
export async function mailRequest(
  args: Readonly<Record<string, unknown>>,
  setup: CommandSetup,
  ctx: CliContext,
  known?: MailSettings,
): Promise<MailRequest | undefined> {
  refuseSmtpPasswordFlag(args);
  const only = mailOnlyTargets(args);
  const given = args.mailTo ?? args["mail-to"];
  if (args.mail !== true && given === undefined) return undefined;
  const mailTo = given === undefined ? undefined : parseAddressList(String(given), "--mail-to");
  const defaultTo = defaultRecipients(setup.config);
  const settings = await mailServerOf(setup, ctx, known);
  return { settings, mailTo, defaultTo, secrets: setup.secrets, only };
}

/**
 * The mail server's settings of `setup`, read unless `known` (read already by the same command),
 * the password added once to the command's redacted secrets.
 */
export async function mailServerOf(
  setup: CommandSetup,
  ctx: CliContext,
  known?: MailSettings,
): Promise<MailSettings> {
  const settings =
    known ??
    (await resolveMailSettings(setup.config, ctx.env, {
      logger: setup.logger,
      signal: ctx.signal,
    }));
  if (settings.password !== undefined && !setup.secrets.includes(settings.password)) {
    setup.secrets.push(settings.password);
  }
  return settings;
}

/** The settings' default recipients (LMS_MAIL_DEFAULT_TO, mail.defaultTo), checked; if any. */
export function defaultRecipients(config: ResolvedConfig): string[] | undefined {
  const given = config.mailDefaultTo;
  return given === undefined ? undefined : parseAddressList(given, config.sources.mailDefaultTo);
}

/**
 * Each job's mail block (or --mail-to's addresses instead) checked without the database: a report
 * without a block fails before `run`'s extract, and before `schedule` waits for its first tick.
 */
export function checkJobMail(jobs: readonly ReportJob[], recipients: Recipients): void {
  for (const job of jobs) jobMail(job, recipients);
}

/**
 * Each job's mail, checked against the database (the split column, and the roster column its
 * managers come from) before a file is written.
 */
export async function planMail(
  db: ReportSource,
  jobs: readonly ReportJob[],
  request: MailRequest,
): Promise<Omit<ReportToMail, "result">[]> {
  const planned = jobs.map((job) => ({ job, mail: jobMail(job, request) }));
  const connection = await db.connect();
  try {
    for (const { job, mail } of planned) {
      await checkSplitColumn(connection, job, mail);
      await checkSplitManagerColumn(connection, job, mail, db.portals);
    }
  } finally {
    connection.closeSync();
  }
  return planned;
}

/**
 * Sends the planned mail for the written `results`; mail-failed if any failed, and interrupted
 * when stopped, each naming the command that sends only what did not get through. `names` are
 * the names the `planned` jobs were given, in the same order.
 */
export async function sendPlannedMail(
  db: ReportSource,
  planned: readonly Omit<ReportToMail, "result">[],
  results: readonly ReportRunResult[],
  options: {
    names: readonly string[];
    request: MailRequest;
    setup: CommandSetup;
    ctx: CliContext;
    now: Date;
    neutraliseFormulas?: boolean;
    csvBom?: boolean;
    /** The parsed command line, whose options the commands sending mail again repeat. */
    argv: Readonly<Record<string, unknown>>;
  },
): Promise<void> {
  const { request, setup, ctx } = options;
  // By name: a report that failed has no result, and the others keep theirs.
  const reports = planned.flatMap((p) => {
    const result = results.find((r) => r.report === p.job.name);
    return result === undefined ? [] : [{ ...p, result }];
  });
  const nameOf = ({ job }: ReportToMail) =>
    options.names[planned.findIndex((p) => p.job === job)] ?? job.name;
  let soFar: (() => MailSoFar) | undefined;
  const mailing = () =>
    mailReports(db, reports, {
      settings: request.settings,
      outDir: setup.config.outDir,
      now: options.now,
      logger: setup.logger,
      signal: ctx.signal,
      ...(options.neutraliseFormulas === undefined
        ? {}
        : { neutraliseFormulas: options.neutraliseFormulas }),
      ...(options.csvBom === undefined ? {} : { csvBom: options.csvBom }),
      ...(request.only === undefined ? {} : { only: request.only }),
      watch: (given) => {
        soFar = given;
      },
    });
  const words = () => stoppedAtOnce(soFar?.(), reports.map(nameOf), nameOf, options.argv);
  const summary = await (ctx.lastWords?.during(words, mailing) ?? mailing()).catch(
    (error: unknown) => {
      if (!(error instanceof MailInterruptedError)) throw error;
      // Said as a finished mailing says it: a job's output shows what went before the stop.
      ctx.stdout.write(sentLine(error.summary));
      throw interruptedWithCommand(error, reports.map(nameOf), nameOf, options.argv);
    },
  );
  ctx.stdout.write(sentLine(summary));
  if (summary.problems.length > 0) {
    const redact = createRedactor(() => request.secrets);
    const more = moreProblems(summary.problems.length - 1);
    const resend = resendCommands(summary.resend, nameOf, options.argv);
    throw new LmsExportError(
      "mail-failed",
      `${redact.text(summary.problems[0] ?? "")}${more}${unsureNote(summary, resend !== undefined)}; the report files are written${resend === undefined ? "" : `; to send only those again: ${resend}`}`,
    );
  }
}

/**
 * Whom a message may not have reached (delivery unknown): the command sending mail again leaves
 * them out, as their message may have arrived, so the line names them, or a reader of the last
 * line alone would take everyone else as reached.
 */
function unsureNote({ unsure, problems }: MailSummary, command: boolean): string {
  // The first problem, shown in full, may already be a message of unknown delivery.
  const said = new Set(unsure.filter((u) => u.line === problems[0]).flatMap((u) => u.to));
  const who = [...new Set(unsure.flatMap((u) => u.to))].filter((address) => !said.has(address));
  if (who.length === 0) return "";
  const below = command ? ", which the command below leaves out" : "";
  return `; delivery unknown to ${who.join(", ")} (the connection ended after the message was sent): ask before sending it again${below}`;
}

/** " (and N more problems; see the log)" after the first of a mailing's problems, if any. */
function moreProblems(others: number): string {
  return others > 0 ? ` (and ${others} more problem${others === 1 ? "" : "s"}; see the log)` : "";
}

/** The line on stdout that says how many messages a mailing delivered, however it ended. */
function sentLine({ sent }: MailSummary): string {
  return `mail: ${sent} message${sent === 1 ? "" : "s"} sent\n`;
}

/**
 * The interruption said with the command that sends what it left unsent: to the recipients not
 * reached yet, or, when it came before any message was decided, the mailing of every report
 * (`names`) as the command line asked for it.
 */
function interruptedWithCommand(
  error: MailInterruptedError,
  names: readonly string[],
  nameOf: (report: ReportToMail) => string,
  argv: Readonly<Record<string, unknown>>,
  note = "",
): LmsExportError {
  const command = error.planned
    ? resendCommands(error.summary.resend, nameOf, argv)
    : reportCommandLine(argv, names, givenMailWords(argv));
  const what = error.planned ? "them" : "it";
  const said = `${error.message}${note}`;
  const message = command === undefined ? said : `${said}; to send ${what}: ${command}`;
  return new LmsExportError("interrupted", message, { cause: error });
}

/**
 * What the process says when a second Ctrl-C ends it during the mailing (`soFar`, undefined
 * before the mailing started): what an interrupted mailing says, and the messages whose delivery
 * was under way, which may have arrived and so are not in the command that sends the rest.
 */
function stoppedAtOnce(
  soFar: MailSoFar | undefined,
  names: readonly string[],
  nameOf: (report: ReportToMail) => string,
  argv: Readonly<Record<string, unknown>>,
): Words {
  const summary = soFar?.summary ?? { sent: 0, problems: [], resend: [], unsure: [] };
  const stopped = new MailInterruptedError(summary, soFar?.planned ?? false, {});
  const unsure = (soFar?.unsure ?? []).map((u) => `${nameOf(u.report)} to ${u.to.join(", ")}`);
  const being = unsure.length === 1 ? "was" : "were";
  const note =
    unsure.length === 0
      ? ""
      : `; delivery unknown: ${unsure.join("; ")} ${being} being delivered when a second Ctrl-C ended the run, and may have arrived: check before sending it again`;
  const error = interruptedWithCommand(stopped, names, nameOf, argv, note);
  return { stdout: sentLine(summary), stderr: `${failureLine(error)}\n` };
}
