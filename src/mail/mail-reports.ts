/**
 * Mailing the reports a command has written: for each report, decide whether it is sent (`when`),
 * to whom (split or not), build each message (the body is the report as its recipient gets it,
 * charts included; the files attached from disk) and deliver it. The files stay written whatever happens to the mail;
 * problems are collected and reported together at the end.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { Logger } from "../log/logger.js";
import { checkSignal, interrupted, interruptOnAbort } from "../report/interruption.js";
import { type LastLoad, lastLoad } from "../report/last-load.js";
import { columnLabel } from "../report/present/column-label.js";
import { bindJob, type ReportJob } from "../report/report-jobs.js";
import type { ReportSource } from "../report/report-source.js";
import type { BoundQuery } from "../report/run-query.js";
import type { ReportRunResult } from "../report/run-report.js";
import { type MailBodyRenderer, renderMailBody } from "./body.js";
import { composeMail } from "./compose.js";
import { DEFAULT_RETRY, deliver, type RetryPolicy } from "./deliver.js";
import type { JobMail } from "./job-mail.js";
import { expandSubject } from "./mail-block.js";
import { messageDocument } from "./mail-document.js";
import type { MailSettings } from "./settings.js";
import { type SplitGroup, splitAddresses } from "./split.js";
import { writeSplitFiles } from "./split-files.js";

export interface MailReportsOptions {
  settings: MailSettings;
  outDir: string;
  /** The time the reports were made with (their file names and the subject's {date}). */
  now: Date;
  logger: Logger;
  signal?: AbortSignal;
  policy?: RetryPolicy;
  neutraliseFormulas?: boolean;
  /** Every CSV attached starts with a byte-order mark (--csv-bom), as the report's own do. */
  csvBom?: boolean;
  render?: MailBodyRenderer;
}

/** One report to mail: its job, its mail, and what writing it produced. */
export interface ReportToMail {
  job: ReportJob;
  mail: JobMail;
  result: ReportRunResult;
}

/** What mailing did: messages delivered, and one line per problem. */
export interface MailSummary {
  sent: number;
  problems: string[];
}

/** One message to build: recipients, whose rows (the queries as narrowed for them), which files. */
interface Message {
  to: string[];
  cc: string[];
  scope: string | undefined;
  bound: BoundQuery[];
  files: string[];
}

/**
 * Mails each report. `options.signal` stops it: no message is sent once it has fired (one being
 * delivered is finished, never cut off mid-way), and an "interrupted" error says how many were.
 */
export async function mailReports(
  db: ReportSource,
  reports: readonly ReportToMail[],
  options: MailReportsOptions,
): Promise<MailSummary> {
  const summary: MailSummary = { sent: 0, problems: [] };
  try {
    for (const report of reports) await mailOne(db, report, summary, options);
  } catch (error) {
    if (!options.signal?.aborted) throw error;
    const sent = `${summary.sent} message${summary.sent === 1 ? "" : "s"} sent before`;
    throw interrupted("mail", { outcome: `no further mail was sent (${sent})`, cause: error });
  }
  return summary;
}

/** Mails one report (when its `when` says so), adding what happened to `summary`. */
async function mailOne(
  db: ReportSource,
  report: ReportToMail,
  summary: MailSummary,
  options: MailReportsOptions,
): Promise<void> {
  const { mail, result, job } = report;
  if (mail.when === "rows" && (result.rows[mail.whenQuery] ?? 0) === 0) {
    options.logger.info("no rows: report not mailed", { report: job.name, query: mail.whenQuery });
    return;
  }
  checkSignal(options.signal, "mail");
  const connection = await db.connect();
  const unwatch = interruptOnAbort(options.signal, connection);
  try {
    const messages = await messagesOf(db, connection, report, options);
    const loaded = await lastLoad(connection, db.portals);
    for (const message of messages) {
      const { delivered, problem } = await sendOne(db, report, message, loaded, options);
      if (delivered) summary.sent++;
      if (problem !== undefined) summary.problems.push(problem);
    }
  } finally {
    unwatch();
    connection.closeSync();
  }
}

function attached(files: readonly string[], formats: readonly string[]): string[] {
  return files.filter((file) => formats.some((format) => file.endsWith(`.${format}`)));
}

/**
 * The line telling a split message's recipient whose rows it holds; the unassigned message says
 * where the others went, so that one with no rows still says something.
 */
function scopeLine(label: string, address: string | undefined): string {
  return address === undefined
    ? `Only the rows without a ${label} address; each row with one went to that address.`
    : `Only your rows: those whose ${label} is ${address}.`;
}

async function messagesOf(
  db: ReportSource,
  connection: DuckDBConnection,
  { job, mail, result }: ReportToMail,
  options: MailReportsOptions,
): Promise<Message[]> {
  const bound = await bindJob(connection, job, db.portals);
  const first = bound[0];
  if (first === undefined) return [];
  const column = mail.splitBy;
  if (column === undefined) {
    const files = attached(result.files, mail.attach);
    return [{ to: mail.to, cc: mail.cc, scope: undefined, bound, files }];
  }
  const { addresses, invalid } = await splitAddresses(connection, first, column);
  if (invalid.length > 0) {
    options.logger.warn(
      "values that are not e-mail addresses: their rows go to the report's recipients",
      {
        report: job.name,
        column,
        values: invalid.slice(0, 10),
      },
    );
  }
  const groups: SplitGroup[] = [
    ...addresses.map((address) => ({ address })),
    { address: undefined },
  ];
  const messages: Message[] = [];
  for (const group of groups) {
    const split = await writeSplitFiles(db, job, mail, group, addresses, options);
    const rows = split.rows[first.query.name] ?? 0;
    if (group.address === undefined && rows === 0 && mail.when === "rows") continue;
    messages.push({
      to: group.address === undefined ? mail.to : [group.address],
      cc: group.address === undefined ? mail.cc : [],
      scope: scopeLine(columnLabel(column, first.query.labels), group.address),
      bound: split.bound,
      files: split.files,
    });
  }
  return messages;
}

/** One message ready to send, with what the log line of its delivery names. */
interface ComposedMessage {
  raw: Buffer;
  messageId: string;
  subject: string;
  /** The attached files' names, without their folder. */
  files: string[];
}

/**
 * What sending one message did: whether the server took it for anyone (a message some of whose
 * recipients were refused was still delivered to the others), and the problem line, if any.
 */
interface Sent {
  delivered: boolean;
  problem: string | undefined;
}

/** Builds and delivers one message. */
async function sendOne(
  db: ReportSource,
  report: ReportToMail,
  message: Message,
  loaded: LastLoad,
  options: MailReportsOptions,
): Promise<Sent> {
  const { job } = report;
  const { raw, messageId, subject, files } = await composeOne(db, report, message, loaded, options);
  // Composing runs the report's queries again: the signal may have fired meanwhile.
  checkSignal(options.signal, "mail");
  const recipients = [...message.to, ...message.cc];
  const label = `${job.name} to ${recipients.join(", ")}`;
  const outcome = await deliver(
    options.settings,
    { from: options.settings.from, to: recipients },
    raw,
    {
      policy: options.policy ?? DEFAULT_RETRY,
      logger: options.logger,
      label,
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  if (outcome.status === "unknown") {
    const problem = `mail ${label}: delivery unknown (the connection ended after the message was sent; it was not sent again): ${outcome.error.message}`;
    return { delivered: false, problem };
  }
  if (outcome.status === "failed") {
    const problem = `mail ${label} not delivered after ${outcome.attempts} attempt${outcome.attempts === 1 ? "" : "s"}: ${outcome.error.message}`;
    return { delivered: false, problem };
  }
  options.logger.info("mail sent", {
    report: job.name,
    to: outcome.accepted,
    subject,
    files,
    messageId,
    response: outcome.response,
  });
  if (outcome.rejected.length === 0) return { delivered: true, problem: undefined };
  options.logger.error("mail refused for some recipients: the others got it", {
    report: job.name,
    server: options.settings.display,
    rejected: outcome.rejected,
    response: outcome.rejectedAnswers,
  });
  const answers =
    outcome.rejectedAnswers.length > 0 ? `: ${outcome.rejectedAnswers.join("; ")}` : "";
  const problem = `mail ${label}: the server refused recipient ${outcome.rejected.join(", ")}${answers} (the others got it)`;
  return { delivered: true, problem };
}

/** The body is the report as this message's recipients get it; the files are attached from disk. */
async function composeOne(
  db: ReportSource,
  { job, mail }: ReportToMail,
  message: Message,
  loaded: LastLoad,
  options: MailReportsOptions,
): Promise<ComposedMessage> {
  const render = options.render ?? renderMailBody;
  const document = await messageDocument(db, job, message.bound, {
    attach: mail.attach,
    loaded,
    now: options.now,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const files = message.files.map((file) => file.slice(file.lastIndexOf("/") + 1));
  const body = render({
    document,
    ...(message.scope === undefined ? {} : { scope: message.scope }),
    attachments: files,
  });
  const subject = expandSubject(mail.subject, {
    title: job.title,
    now: options.now,
    portal: job.portal,
  });
  const { raw, messageId } = await composeMail({
    from: options.settings.from,
    to: message.to,
    cc: message.cc,
    subject,
    body,
    files: message.files,
    date: options.now,
  });
  return { raw, messageId, subject, files };
}
