/**
 * How far a mailing's messages went, report by report: which were tried and whom they did not
 * reach, and the one being delivered. Read to say whom to send again, when the mailing ends and,
 * for a process that must end at once (a second Ctrl-C), at any moment.
 */
import { envelopeOf, type MailTarget, partOf, targetsOf } from "./mail-only.js";
import type { PlannedReport } from "./mail-plan.js";
import type { MailSoFar, MailSummary } from "./mail-summary.js";

/**
 * How far one report's messages went: how many were tried, and what those did not deliver, each
 * recipient with the message it missed.
 */
export interface ReportProgress {
  planned: PlannedReport;
  tried: number;
  undelivered: MailTarget[];
  /** The recipients of the message being delivered, while it is: the server may have taken it. */
  sending?: string[];
  /** Whether the server asked for that message: until then, nothing of it can have arrived. */
  started?: boolean;
}

/**
 * Per report, the messages and recipients not reached: those its tried messages did not reach,
 * and those of the messages not tried yet (none once every message was tried). An address that
 * gets two messages of the report is named with the one it missed: the other may have arrived.
 */
export function notReached(
  progress: readonly ReportProgress[],
  only: readonly MailTarget[] | undefined,
): MailSummary["resend"] {
  return progress.flatMap(({ planned, tried, undelivered }) => {
    const rest = planned.messages.slice(tried).flatMap((m) => {
      const part = partOf(m.scope);
      return targetsOf(envelopeOf([...m.to, ...m.cc], part, only), part, planned.twice);
    });
    const targets = [...undelivered, ...rest];
    return targets.length === 0 ? [] : [{ report: planned.report, targets }];
  });
}

/**
 * What the mailing has done at this moment. The message being delivered is in neither `sent` nor
 * `resend`: the server may have taken it, so it is named apart, never sent again.
 */
export function soFar(
  summary: MailSummary,
  progress: readonly ReportProgress[] | undefined,
  only: readonly MailTarget[] | undefined,
): MailSoFar {
  // One the server has not asked for yet cannot have arrived: it counts as not reached.
  const underway = progress?.find((p) => p.sending !== undefined && p.started === true);
  const counted = (progress ?? []).map((p) => (p === underway ? { ...p, tried: p.tried + 1 } : p));
  return {
    summary: { ...summary, resend: notReached(counted, only) },
    planned: progress !== undefined,
    unsure:
      underway?.sending === undefined
        ? undefined
        : { report: underway.planned.report, to: underway.sending },
  };
}
