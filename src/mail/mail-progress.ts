/**
 * How far a mailing's messages went, report by report: which were tried and whom they did not
 * reach, and those being delivered. Read to say whom to send again, when the mailing ends and,
 * for a process that must end at once (a second Ctrl-C), at any moment.
 */
import { envelopeOf, type MailTarget, partOf, targetsOf } from "./mail-only.js";
import type { Message, PlannedReport } from "./mail-plan.js";
import type { MailSoFar, MailSummary } from "./mail-summary.js";

/** A message being delivered: its recipients, and whether the server has asked for it yet. */
export interface Underway {
  to: string[];
  /** Until the server asks for the message, nothing of it can have arrived. */
  started: boolean;
}

/**
 * How far one report's messages went: each tried (its outcome known, or an earlier run's) with
 * the recipients it surely did not reach, and each being delivered now.
 */
export interface ReportProgress {
  planned: PlannedReport;
  tried: Map<Message, MailTarget[]>;
  underway: Map<Message, Underway>;
}

/** A report's progress before any of its messages was tried. */
export function startProgress(planned: PlannedReport): ReportProgress {
  return { planned, tried: new Map(), underway: new Map() };
}

/**
 * Per report, in the order of its messages, the recipients not reached: those a tried message
 * did not reach, and those of a message not tried yet, but for one being delivered that the
 * server has asked for (it may have arrived: named apart, never sent again). An address that gets
 * two messages of the report is named with the one it missed: the other may have arrived.
 */
export function notReached(
  progress: readonly ReportProgress[],
  only: readonly MailTarget[] | undefined,
): MailSummary["resend"] {
  return progress.flatMap(({ planned, tried, underway }) => {
    const targets = planned.messages.flatMap((m) => {
      const missed = tried.get(m);
      if (missed !== undefined) return missed;
      if (underway.get(m)?.started === true) return [];
      const part = partOf(m.scope);
      return targetsOf(envelopeOf([...m.to, ...m.cc], part, only), part, planned.twice);
    });
    return targets.length === 0 ? [] : [{ report: planned.report, targets }];
  });
}

/** Messages not tried, over every report. */
export function untried(progress: readonly ReportProgress[]): number {
  return progress.reduce((n, p) => n + p.planned.messages.length - p.tried.size, 0);
}

/**
 * What the mailing has done at this moment. A message being delivered that the server asked for
 * is in neither `sent` nor `resend`: it may have arrived, so it is named apart.
 */
export function soFar(
  summary: MailSummary,
  progress: readonly ReportProgress[] | undefined,
  only: readonly MailTarget[] | undefined,
): MailSoFar {
  const unsure = (progress ?? []).flatMap((p) =>
    [...p.underway.values()]
      .filter((u) => u.started)
      .map((u) => ({ report: p.planned.report, to: u.to })),
  );
  return {
    summary: { ...summary, resend: notReached(progress ?? [], only) },
    planned: progress !== undefined,
    unsure,
  };
}
