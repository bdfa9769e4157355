/**
 * The message that tells someone a command failed. A scheduled run that fails otherwise tells only
 * its log, read by nobody until a report is missed: that week's recipients get nothing, and the
 * one who could mend it does not know. The message holds what the command printed as its last
 * line (already free of secrets: the caller redacts it), where it ran, and what to do first.
 */
import { hostname } from "node:os";
import type { Logger } from "../log/logger.js";
import { escapeHtml } from "../report/html/escape.js";
import { composeMail } from "./compose.js";
import { deliver } from "./deliver.js";
import type { MailSettings } from "./settings.js";
import { SmtpSession } from "./smtp-session.js";

/** What failed, where and when. */
export interface FailedCommand {
  /** The command as a user would name it, e.g. `lms-export run weekly-compliance`. */
  command: string;
  /** The working directory it ran in. */
  cwd: string;
  started: Date;
  failed: Date;
  /** The one line the command ended with (or what ended it), redacted. */
  reason: string;
  /** How it ended: `exit 1`, or the signal that killed it. */
  ended: string;
}

/** `2026-11-30 06:00 UTC`: a log's clock, whatever the recipient's time zone. */
function utcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The subject, the plain text and its HTML twin of the notice for `failed`. */
export function failureNoticeText(
  failed: FailedCommand,
  host = hostname(),
): { subject: string; text: string; html: string } {
  const subject = `${failed.command} failed on ${host}`;
  const when = `started ${utcMinute(failed.started)}, failed ${utcMinute(failed.failed)} (${failed.ended})`;
  const where = `on ${host} in ${failed.cwd}`;
  const advice =
    'On that machine, "lms-export check" with the same settings says how the portal, the database and the mail server stand now; the log of the run has every step.';
  const text = `${failed.command} ${where}, ${when}:\n\n${failed.reason}\n\n${advice}\n`;
  const html = [
    `<p><strong>${escapeHtml(failed.command)}</strong> ${escapeHtml(where)}, ${escapeHtml(when)}:</p>`,
    `<pre style="white-space:pre-wrap">${escapeHtml(failed.reason)}</pre>`,
    `<p>${escapeHtml(advice)}</p>`,
  ].join("\n");
  return { subject, text, html };
}

/**
 * Sends the notice of `failed` to `to` (checked addresses). Never throws for a delivery
 * problem: answers the reason it did not go, or undefined once the server took it. Two
 * attempts at most, the second soon after: a notice is not worth holding a failed run for.
 */
async function sendFailureNotice(
  settings: MailSettings,
  to: readonly string[],
  failed: FailedCommand,
  logger: Logger,
): Promise<string | undefined> {
  const { subject, text, html } = failureNoticeText(failed);
  const { raw } = await composeMail({
    from: settings.from,
    to: [...to],
    cc: [],
    subject,
    body: { text, html, inline: [] },
    files: [],
    date: failed.failed,
  });
  const session = new SmtpSession(settings);
  try {
    const outcome = await deliver(session, { from: settings.from, to: [...to] }, raw, {
      policy: { attempts: 2, firstDelayMs: 2_000 },
      logger,
      label: `failure notice to ${to.join(", ")}`,
    });
    if (outcome.status === "sent") {
      return outcome.rejected.length === 0
        ? undefined
        : `the server refused ${outcome.rejected.join(", ")}`;
    }
    return outcome.status === "unknown"
      ? `delivery unknown: ${outcome.error.message}`
      : outcome.error.message;
  } finally {
    session.close();
  }
}

/**
 * Tells `to` of `failed` and logs whether it went: an info line, or a warning saying why not.
 * Never throws: the failure told of is what the command ends with, not this.
 */
export async function tellFailure(
  settings: MailSettings,
  to: readonly string[],
  failed: FailedCommand,
  logger: Logger,
): Promise<void> {
  const problem = await sendFailureNotice(settings, to, failed, logger).catch((caught: unknown) =>
    caught instanceof Error ? caught.message : String(caught),
  );
  const who = to.join(", ");
  if (problem === undefined) logger.info(`told ${who} of the failure by mail`);
  else logger.warn(`could not tell ${who} of the failure by mail: ${problem}`);
}
