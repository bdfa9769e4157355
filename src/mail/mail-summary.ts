/**
 * What mailing the reports did, as the command line reports it: messages delivered, problems,
 * and whom to send again; and the error of a mailing stopped by its signal, which carries the
 * same account so the command line can say whom nothing reached yet and how to send it.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import type { MailTarget } from "./mail-only.js";
import type { ReportToMail } from "./mail-plan.js";
import { someAddresses } from "./some-addresses.js";

/** What mailing did: messages delivered, one line per problem, and whom to send again. */
export interface MailSummary {
  sent: number;
  problems: string[];
  /**
   * Per report, in order, the recipients its messages surely did not reach (refused, not taken
   * after every attempt, or, once mailing was stopped, not sent yet), as --mail-only names them:
   * a run with `--mail-only` and these sends those messages to them, and nothing else. A
   * "delivery unknown" message is not here: it may have arrived.
   */
  resend: { report: ReportToMail; targets: MailTarget[] }[];
  /**
   * The recipients of each message whose delivery is unknown (the connection ended after the
   * message was sent), with its line in `problems`: left out of `resend`, so the command line
   * names them apart, but for those whose own line is the one shown first. The line itself, not
   * its place, since a mailing that stops puts its own line first.
   */
  unsure: { to: string[]; line: string }[];
}

/**
 * What a mailing has done at one moment: its summary (`resend` holding every recipient not reached
 * yet), whether its messages were all decided (false: nothing was sent), and the messages being
 * delivered that the server has asked for, which may have arrived.
 */
export interface MailSoFar {
  summary: MailSummary;
  planned: boolean;
  unsure: { report: ReportToMail; to: string[] }[];
}

/**
 * Mailing stopped by its signal. `summary.resend` holds every recipient not reached yet; with
 * `planned` false, the signal came before the messages were all decided, and nothing was sent.
 */
export class MailInterruptedError extends LmsExportError {
  constructor(
    readonly summary: MailSummary,
    readonly planned: boolean,
    options: { cause?: unknown },
  ) {
    const sent = `${summary.sent} message${summary.sent === 1 ? "" : "s"} sent before`;
    const missed = [...new Set(summary.resend.flatMap((r) => r.targets.map((t) => t.address)))];
    const outcome = !planned
      ? "no mail was sent"
      : `no further mail was sent (${sent})${missed.length === 0 ? "" : `; not reached: ${someAddresses(missed)}`}`;
    super("interrupted", `mail interrupted; ${outcome}`, options);
  }
}
