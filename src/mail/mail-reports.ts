/**
 * Mailing the reports a command has written: every report's messages are decided first
 * (mail-plan.ts), then each is built (the body is the report as its recipient gets it, charts
 * included; the files attached from disk) and delivered. The files stay written whatever happens
 * to the mail; problems are collected and reported together at the end.
 */

import { checkSignal } from "../report/interruption.js";
import { reportDay } from "../report/report-day.js";
import type { ReportSource } from "../report/report-source.js";
import { normaliseAddress } from "./address.js";
import { type MailBodyRenderer, renderMailBody } from "./body.js";
import { composeMail } from "./compose.js";
import { DEFAULT_RETRY, type DeliveryOutcome, deliver, type RetryPolicy } from "./deliver.js";
import { expandSubject, shareName } from "./mail-block.js";
import { messageDocument } from "./mail-document.js";
import { envelopeOf, type MessagePart, partOf, targetsOf } from "./mail-only.js";
import {
  type Message,
  type PlannedReport,
  type PlanOptions,
  planReports,
  type ReportToMail,
} from "./mail-plan.js";
import { notReached, type ReportProgress, soFar } from "./mail-progress.js";
import { MailInterruptedError, type MailSoFar, type MailSummary } from "./mail-summary.js";
import { MailingJournal } from "./mailing-journal.js";
import { scopeLine } from "./scope-line.js";
import type { MailSettings } from "./settings.js";
import type { Envelope, SmtpAttemptError } from "./smtp-attempt.js";
import { SmtpSession } from "./smtp-session.js";
import { SplitTables } from "./split-tables.js";
import { NOT_STARTED_WARNING, stopWarningText } from "./stop-warning.js";

export type { ReportToMail } from "./mail-plan.js";
export { MailInterruptedError, type MailSoFar, type MailSummary } from "./mail-summary.js";

export interface MailReportsOptions extends Omit<PlanOptions, "tables"> {
  settings: MailSettings;
  policy?: RetryPolicy;
  render?: MailBodyRenderer;
  /**
   * Given, when the mailing starts, what answers synchronously what it has done so far: for a
   * process that must end at once (a second Ctrl-C) and cannot wait for the mailing to stop.
   */
  watch?: (soFar: () => MailSoFar) => void;
}

/**
 * A message as sent: its scope line written out, knowing what the report's earlier ones did, and
 * which of the report's messages it is.
 */
type Outgoing = Omit<Message, "scope"> & {
  scope: string | undefined;
  part: MessagePart;
  /** What the subject's {share} says (shareName). */
  share: string | undefined;
  /** Its key in the mailing journal. */
  key: string;
};

/**
 * Mails each report. `options.signal` stops it: no message is sent once it has fired (one being
 * delivered is finished, never cut off mid-way), and a MailInterruptedError says how many were
 * and whom nothing reached yet.
 */
export async function mailReports(
  db: ReportSource,
  reports: readonly ReportToMail[],
  options: MailReportsOptions,
): Promise<MailSummary> {
  const summary: MailSummary = { sent: 0, problems: [], resend: [], unsure: [] };
  // The split reports' rows, kept until the last message is built: its body reads them too.
  const tables = new SplitTables(db, options.logger);
  // Undefined until every message is decided: nothing is sent before.
  let progress: ReportProgress[] | undefined;
  let journal: MailingJournal | undefined;
  // One connection for the mailing's messages, opened with the first.
  const session = new SmtpSession(options.settings);
  options.watch?.(() => soFar(summary, progress, options.only));
  const warnStop = () => stopWarning(progress, options);
  options.signal?.addEventListener("abort", warnStop, { once: true });
  try {
    const planned = await planReports(db, reports, { ...options, tables });
    progress = planned.map((p) => ({ planned: p, tried: 0, undelivered: [] }));
    // Taken before the first message: another run mailing the same reports is refused.
    journal = await MailingJournal.take(planned, options);
    for (const report of progress) {
      const down = await sendReport(db, report, summary, { ...options, session, journal });
      if (down === undefined) continue;
      // Ctrl-C while waiting on the server: an interruption, said as one.
      checkSignal(options.signal, "mail");
      stopMailing(progress, summary, down, options);
      break;
    }
  } catch (error) {
    if (!options.signal?.aborted) throw error;
    summary.resend = notReached(progress ?? [], options.only);
    throw new MailInterruptedError(summary, progress !== undefined, { cause: error });
  } finally {
    options.signal?.removeEventListener("abort", warnStop);
    session.close();
    // Whatever ended the mailing is said by the caller: the journal has no more to tell.
    await journal?.close();
    await tables.close();
  }
  summary.resend = notReached(progress, options.only);
  return summary;
}

/** Said when the signal comes while a message is being delivered (stop-warning.ts). */
function stopWarning(
  progress: readonly ReportProgress[] | undefined,
  options: MailReportsOptions,
): void {
  const underway = progress?.find((p) => p.sending !== undefined);
  if (underway?.sending === undefined) return;
  const text = underway.started ? stopWarningText(options.signal) : NOT_STARTED_WARNING;
  options.logger.warn(text, { to: underway.sending });
}

/**
 * Ends a mailing whose server could not be reached, or refused TLS or the login, at the last
 * attempt of a message: the others would wait out the same attempts (6 s each by default) to the
 * same end, so they are not tried, and the first problem line says so, in place of the line of
 * the message that failed. They are in `resend` like any message not tried.
 */
function stopMailing(
  progress: readonly ReportProgress[],
  summary: MailSummary,
  error: SmtpAttemptError,
  options: MailReportsOptions,
): void {
  const untried = progress.reduce((n, p) => n + p.planned.messages.length - p.tried, 0);
  if (untried === 0) return;
  const server = options.settings.display;
  options.logger.error("mailing stopped: the mail server could not be reached", {
    server,
    error: error.message,
    notTried: untried,
  });
  const count = `${untried} ${untried === 1 ? "was" : "were"}`;
  // A TLS failure's or a refused sender's message says what failed and what to check: "not
  // reached" would mislead.
  const what =
    error.tls || error.senderRefused
      ? `${error.message}; with ${server}`
      : `the mail server ${server} could not be reached or refused the login (${error.message})`;
  // The message that met the failure is counted here, so its own line (the last one, added just
  // before the mailing stopped) would say the same failure a second time.
  summary.problems.pop();
  summary.problems.unshift(`${what}: mailing stopped; 1 message failed and ${count} not tried`);
}

/** The mailing's options, with the connection its messages share. */
type SendOptions = MailReportsOptions & { session: SmtpSession; journal: MailingJournal };

/**
 * Sends one report's messages in order, adding what happened to `summary` and `progress`.
 * Answers the error of a message that never reached the server (see stopMailing), which ends the
 * report's messages there; undefined when they were all tried.
 */
async function sendReport(
  db: ReportSource,
  progress: ReportProgress,
  summary: MailSummary,
  options: SendOptions,
): Promise<SmtpAttemptError | undefined> {
  const { messages, twice } = progress.planned;
  // Shares whose rows may have reached nobody: the message of the rows without an address is
  // sent after every share, and says so.
  const missed: string[] = [];
  for (const message of messages) {
    const shares = { missed, partial: options.only !== undefined, outDir: options.outDir };
    const scope = message.scope && scopeLine(message.scope, shares);
    const part = partOf(message.scope);
    const share = shareName(message.scope);
    const key = options.journal.key(message);
    const outgoing = { ...message, scope, part, share, key };
    // A killed earlier run of this mailing may have sent it, or been sending it: not again, and
    // its record stays as it was (a resumed run killed in turn must not send it either).
    const earlier = options.journal.earlier(message);
    const sent = earlier ?? (await sendOne(db, progress, outgoing, options));
    if (earlier === undefined) await options.journal.outcome(key, sent);
    progress.tried++;
    if (sent.delivered) summary.sent++;
    if (sent.problem !== undefined) summary.problems.push(sent.problem);
    if (sent.unsure.length > 0) summary.unsure.push({ to: sent.unsure, line: sent.problem ?? "" });
    progress.undelivered.push(...targetsOf(sent.undelivered, part, twice));
    if (message.scope?.address !== undefined) missed.push(...sent.undelivered, ...sent.unsure);
    if (sent.serverDown !== undefined) return sent.serverDown;
  }
  return undefined;
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
 * recipients were refused was still delivered to the others), the problem line, if any, the
 * recipients it surely did not reach, and those it may not have (delivery unknown).
 */
interface Sent {
  delivered: boolean;
  problem: string | undefined;
  undelivered: string[];
  unsure: string[];
  /** The last attempt failed before the message could be offered (no connection, login refused). */
  serverDown?: SmtpAttemptError;
}

/** Builds and delivers one message of `progress`'s report. */
async function sendOne(
  db: ReportSource,
  progress: ReportProgress,
  message: Outgoing,
  options: SendOptions,
): Promise<Sent> {
  const { report, loaded, roster, leftPeople } = progress.planned;
  const { job } = report;
  const about = { loaded, roster, leftPeople };
  const { raw, messageId, subject, files } = await composeOne(db, report, message, about, options);
  // Composing reads the report's rows again: the signal may have fired meanwhile.
  checkSignal(options.signal, "mail");
  const recipients = envelopeOf([...message.to, ...message.cc], message.part, options.only);
  const label = `${job.name} to ${recipients.join(", ")}`;
  const beforeData = () => {
    progress.started = true;
    options.journal.sending(message.key);
  };
  const envelope = { from: options.settings.from, to: recipients, beforeData };
  const outcome = await deliverUnderway(progress, envelope, raw, label, options);
  if (outcome.status === "unknown") {
    const problem = `mail ${label}: delivery unknown (the connection ended after the message was sent; it was not sent again): ${outcome.error.message}`;
    return { delivered: false, problem, undelivered: [], unsure: recipients };
  }
  if (outcome.status === "failed") {
    const problem = `mail ${label} not delivered after ${outcome.attempts} attempt${outcome.attempts === 1 ? "" : "s"}: ${outcome.error.message}`;
    const failed = { delivered: false, problem, undelivered: recipients, unsure: [] };
    return outcome.error.beforeMessage ? { ...failed, serverDown: outcome.error } : failed;
  }
  options.logger.info("mail sent", {
    report: job.name,
    to: outcome.accepted,
    subject,
    files,
    messageId,
    response: outcome.response,
  });
  if (outcome.rejected.length === 0) {
    return { delivered: true, problem: undefined, undelivered: [], unsure: [] };
  }
  options.logger.error("mail refused for some recipients: the others got it", {
    report: job.name,
    server: options.settings.display,
    rejected: outcome.rejected,
    response: outcome.rejectedAnswers,
  });
  const answers =
    outcome.rejectedAnswers.length > 0 ? `: ${outcome.rejectedAnswers.join("; ")}` : "";
  const problem = `mail ${label}: the server refused recipient ${outcome.rejected.join(", ")}${answers} (the others got it)`;
  return {
    delivered: true,
    problem,
    undelivered: outcome.rejected.map(normaliseAddress),
    unsure: [],
  };
}

/** Delivers `raw` to `envelope`, marked in `progress` as under way until the outcome is known. */
async function deliverUnderway(
  progress: ReportProgress,
  envelope: Envelope,
  raw: Buffer,
  label: string,
  options: SendOptions,
): Promise<DeliveryOutcome> {
  progress.sending = envelope.to;
  progress.started = false;
  try {
    return await deliver(options.session, envelope, raw, {
      policy: options.policy ?? DEFAULT_RETRY,
      logger: options.logger,
      label,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    progress.sending = undefined;
  }
}

/** The body is the report as this message's recipients get it; the files are attached from disk. */
async function composeOne(
  db: ReportSource,
  { job, mail }: ReportToMail,
  message: Outgoing,
  { loaded, roster, leftPeople }: Pick<PlannedReport, "loaded" | "roster" | "leftPeople">,
  options: MailReportsOptions,
): Promise<ComposedMessage> {
  const render = options.render ?? renderMailBody;
  const shown = { ...job, description: message.description };
  const document = await messageDocument(db, shown, message.bound, {
    attach: mail.attach,
    loaded,
    // Not in a manager's share: the count is not about their people. The copy of the rows
    // without a manager keeps it: people the roster lacks have none, so their rows are there.
    ...(message.part !== "share" && roster !== undefined ? { roster } : {}),
    // Only in the whole report: the count is over all its people, as its files say it. A share,
    // and the copy of the rows without a manager, would read it as the count of their own rows.
    ...(message.part === "whole" ? { leftPeople } : {}),
    now: options.now,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const files = message.files.map((file) => file.slice(file.lastIndexOf("/") + 1));
  const body = render({
    document,
    ...(message.scope === undefined ? {} : { scope: message.scope }),
    attachments: files,
  });
  const subject = expandSubject(
    message.part === "unassigned" ? mail.unassignedSubject : mail.subject,
    {
      title: job.title,
      now: options.now,
      today: reportDay(job, options.now),
      portal: job.portal,
      share: message.share,
    },
  );
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
