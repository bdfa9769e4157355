/**
 * Mailing the reports a command has written: every report's messages are decided first
 * (mail-plan.ts), then each is built (the body is the report as its recipient gets it, charts
 * included; the files attached from disk) and delivered. The files stay written whatever happens
 * to the mail; problems are collected and reported together at the end.
 */

import { checkSignal } from "../report/interruption.js";
import type { ReportSource } from "../report/report-source.js";
import { planReports, type ReportToMail } from "./mail-plan.js";
import { notReached, type ReportProgress, soFar, startProgress, untried } from "./mail-progress.js";
import { MailInterruptedError, type MailSummary } from "./mail-summary.js";
import { MailingJournal } from "./mailing-journal.js";
import type { MailReportsOptions } from "./send-message.js";
import { type ServerDown, sendReport } from "./send-report.js";
import { SessionPool } from "./session-pool.js";
import { SplitTables } from "./split-tables.js";
import { NOT_STARTED_WARNING, stopWarningText } from "./stop-warning.js";

export type { ReportToMail } from "./mail-plan.js";
export { MailInterruptedError, type MailSoFar, type MailSummary } from "./mail-summary.js";
export type { MailReportsOptions } from "./send-message.js";

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
  // The mailing's connections: one, opened with the first message, then a few (session-pool.ts).
  const pool = new SessionPool(options.settings, options.logger);
  options.watch?.(() => soFar(summary, progress, options.only));
  const warnStop = () => stopWarning(progress, options);
  options.signal?.addEventListener("abort", warnStop, { once: true });
  try {
    const planned = await planReports(db, reports, { ...options, tables });
    progress = planned.map(startProgress);
    // Taken before the first message: another run mailing the same reports is refused.
    journal = await MailingJournal.take(planned, options);
    for (const report of progress) {
      const down = await sendReport(db, report, summary, { ...options, pool, journal });
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
    pool.close();
    // Whatever ended the mailing is said by the caller: the journal has no more to tell.
    await journal?.close();
    await tables.close();
  }
  summary.resend = notReached(progress, options.only);
  return summary;
}

/**
 * Said when the signal comes while messages are being delivered (stop-warning.ts): those the
 * server has asked for are waited for, the others given up at once.
 */
function stopWarning(
  progress: readonly ReportProgress[] | undefined,
  options: MailReportsOptions,
): void {
  const underway = (progress ?? []).flatMap((p) => [...p.underway.values()]);
  const started = underway.filter((u) => u.started).flatMap((u) => u.to);
  const waiting = underway.filter((u) => !u.started).flatMap((u) => u.to);
  if (started.length > 0) options.logger.warn(stopWarningText(options.signal), { to: started });
  if (waiting.length > 0) options.logger.warn(NOT_STARTED_WARNING, { to: waiting });
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
  { error, problems }: ServerDown,
  options: MailReportsOptions,
): void {
  const notTried = untried(progress);
  if (notTried === 0) return;
  const server = options.settings.display;
  options.logger.error("mailing stopped: the mail server could not be reached", {
    server,
    error: error.message,
    notTried,
  });
  const count = `${notTried} ${notTried === 1 ? "was" : "were"}`;
  // A TLS failure's or a refused sender's message says what failed and what to check: "not
  // reached" would mislead.
  const what =
    error.tls || error.senderRefused
      ? `${error.message}; with ${server}`
      : `the mail server ${server} could not be reached or refused the login (${error.message})`;
  // The messages that met the failure are counted here, so their own lines would say the same
  // failure a second time.
  for (const line of problems) {
    const at = summary.problems.indexOf(line);
    if (at >= 0) summary.problems.splice(at, 1);
  }
  const failed = `${problems.length} message${problems.length === 1 ? "" : "s"} failed`;
  summary.problems.unshift(`${what}: mailing stopped; ${failed} and ${count} not tried`);
}
