/**
 * One message of a mailing: built (the body is the report as its recipients get it, charts
 * included; the files attached from disk), then delivered over a connection of the mailing's
 * (session-pool.ts), saying what became of it and of each recipient.
 */
import { checkSignal } from "../report/interruption.js";
import { reportDay } from "../report/report-day.js";
import type { ReportSource } from "../report/report-source.js";
import { normaliseAddress } from "./address.js";
import { type MailBodyRenderer, renderMailBody } from "./body.js";
import { composeMail } from "./compose.js";
import { DEFAULT_RETRY, type DeliveryOutcome, deliver, type RetryPolicy } from "./deliver.js";
import { expandSubject } from "./mail-block.js";
import { messageDocument } from "./mail-document.js";
import { envelopeOf, type MessagePart } from "./mail-only.js";
import type { Message, PlannedReport, PlanOptions, ReportToMail } from "./mail-plan.js";
import type { ReportProgress } from "./mail-progress.js";
import type { MailSoFar } from "./mail-summary.js";
import type { MailingJournal } from "./mailing-journal.js";
import { refusalCode } from "./reply-code.js";
import type { MailSettings } from "./settings.js";
import type { SmtpAttemptError } from "./smtp-attempt.js";
import type { SmtpSession } from "./smtp-session.js";

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

/** The mailing's options, with its journal. */
export type SendOptions = MailReportsOptions & { journal: MailingJournal };

/**
 * A message as sent: its scope line written out, knowing what the report's earlier ones did, and
 * which of the report's messages it is.
 */
export type Outgoing = Omit<Message, "scope"> & {
  scope: string | undefined;
  part: MessagePart;
  /** What the subject's {share} says (shareName). */
  share: string | undefined;
  /** Its key in the mailing journal. */
  key: string;
  /** The message as planned. */
  planned: Message;
};

/** One message ready to send, with what the log line of its delivery names. */
export interface ComposedMessage {
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
export interface Sent {
  delivered: boolean;
  problem: string | undefined;
  undelivered: string[];
  /** Of a message delivered, the codes of the server's refusal of each of `undelivered`. */
  refusedCodes?: (string | undefined)[];
  unsure: string[];
  /** The last attempt failed before the message could be offered (no connection, login refused). */
  serverDown?: SmtpAttemptError;
}

/**
 * Builds one message of `planned`'s report, one at a time (the body reads the report's rows).
 * Throws once the signal has fired: composing takes a while, and nothing is sent after it.
 */
export async function composeMessage(
  db: ReportSource,
  planned: PlannedReport,
  message: Outgoing,
  options: MailReportsOptions,
): Promise<ComposedMessage> {
  const { report, loaded, roster, leftPeople } = planned;
  const composed = await composeOne(db, report, message, { loaded, roster, leftPeople }, options);
  // Composing reads the report's rows again: the signal may have fired meanwhile.
  checkSignal(options.signal, "mail");
  return composed;
}

/** Delivers one composed message of `progress`'s report over `session`; never throws for mail. */
export async function deliverComposed(
  progress: ReportProgress,
  message: Outgoing,
  composed: ComposedMessage,
  session: SmtpSession,
  options: SendOptions,
): Promise<Sent> {
  const { job } = progress.planned.report;
  const recipients = envelopeOf([...message.to, ...message.cc], message.part, options.only);
  const label = `${job.name} to ${recipients.join(", ")}`;
  const underway = { to: recipients, started: false };
  const beforeData = () => {
    underway.started = true;
    options.journal.sending(message.key);
  };
  const envelope = { from: options.settings.from, to: recipients, beforeData };
  progress.underway.set(message.planned, underway);
  let outcome: DeliveryOutcome;
  try {
    outcome = await deliver(session, envelope, composed.raw, {
      policy: options.policy ?? DEFAULT_RETRY,
      logger: options.logger,
      label,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    progress.underway.delete(message.planned);
  }
  return sentOf(outcome, { job: job.name, label, recipients, composed }, options);
}

/** What a delivery's outcome means for the message, logged when the server took it. */
function sentOf(
  outcome: DeliveryOutcome,
  about: { job: string; label: string; recipients: string[]; composed: ComposedMessage },
  options: SendOptions,
): Sent {
  const { job, label, recipients } = about;
  if (outcome.status === "unknown") {
    const problem = `mail ${label}: delivery unknown (the connection ended after the message was sent; it was not sent again): ${outcome.error.message}`;
    return { delivered: false, problem, undelivered: [], unsure: recipients };
  }
  if (outcome.status === "failed") {
    const problem = `mail ${label} not delivered after ${outcome.attempts} attempt${outcome.attempts === 1 ? "" : "s"}: ${outcome.error.message}`;
    const failed = { delivered: false, problem, undelivered: recipients, unsure: [] };
    return outcome.error.beforeMessage ? { ...failed, serverDown: outcome.error } : failed;
  }
  const { subject, files, messageId } = about.composed;
  options.logger.info("mail sent", {
    report: job,
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
    report: job,
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
    refusedCodes: outcome.rejected.map((address, index) => {
      const answer = outcome.rejectedAnswers[index];
      return answer === undefined ? undefined : refusalCode(address, answer);
    }),
    unsure: [],
  };
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
