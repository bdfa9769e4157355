/**
 * Sends the rows of a change set that change something, a few at a time under the client's shared
 * limiter, and records each outcome before the worker takes its next row (see
 * outcome-recorder.ts), so a rerun sends only what was not confirmed. Sending stops early when no
 * row can succeed (a refused key, a portal out of reach) or an outcome cannot be recorded: the
 * rows not sent are `skipped`, for a later run.
 */

import type { LmsClient } from "../api/client.js";
import { errorText } from "../errors/error-text.js";
import { adminNote, type LinkOrigin } from "./admin-note.js";
import type { Outcome } from "./changes-table.js";
import type { OpSpec } from "./ops.js";
import type { OutcomeRecorder } from "./outcome-recorder.js";
import type { PlannedRow } from "./plan.js";
import { type AnsweredRecord, sendRow } from "./send-row.js";
import { portalStop, type StopCause } from "./stop-cause.js";

export interface RowResult {
  readonly outcome: Outcome;
  readonly error: string | null;
  readonly recordId: number | null;
}

export interface ExecuteOptions {
  readonly client: LmsClient;
  readonly recorder: OutcomeRecorder;
  readonly spec: OpSpec;
  readonly plan: readonly PlannedRow[];
  /** Rows sent at once (the client's limiter caps requests in flight anyway). */
  readonly concurrency: number;
  /** How the file numbers its rows ("line", "row"), for warnings. */
  readonly unit: string;
  /**
   * A run of this change set started before: a link the check finds may be one its create made
   * as it was killed, so it counts as applied, not as there before.
   */
  readonly resumed: boolean;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: (done: number, failed: number, total: number) => void;
}

export interface ExecuteResult {
  readonly results: Map<number, RowResult>;
  /** Why sending stopped before the end, other than an interrupt. */
  readonly stop: StopCause | undefined;
  /** Links the portal answered with another admin value than their row asks (admin-note.ts). */
  readonly notes: readonly string[];
}

/** A row's result, or why sending stops and whether this row's answer was lost before it. */
type Sent =
  | {
      readonly result: RowResult;
      readonly answer?: AnsweredRecord;
      /** The warning for a link whose admin value is not the row's (also the result's error). */
      readonly note?: string;
    }
  | { readonly stop: StopCause; readonly lost: boolean };

/** How a skipped row's error starts when its write went out but its answer was lost. */
export const LOST_PREFIX = "sent, but its answer was lost";

/** Said of a row whose write went out but whose answer was lost: "failed" may not be the truth. */
const LOST_NOTE =
  "; an answer of the portal to this row was lost, so it may hold the change (the next run sends the row again)";

const answeredId = (spec: OpSpec, record: AnsweredRecord, fallback: number | null) => {
  const key = spec.kind === "create" ? "user_grp_id" : (spec.idColumn as string);
  const id = Number(record[key]);
  return Number.isSafeInteger(id) ? id : fallback;
};

/** The rows that need no request: `applied` earlier (not recorded again) and `unchanged`. */
async function recordUnsent(
  options: ExecuteOptions,
  recorder: OutcomeRecorder,
  results: Map<number, RowResult>,
): Promise<void> {
  const recorded: Promise<boolean>[] = [];
  for (const planned of options.plan) {
    const { line } = planned.row;
    if (planned.status === "done") {
      results.set(line, { outcome: "applied", error: null, recordId: planned.recordId });
    } else if (planned.status === "unchanged") {
      // A link asked for with another admin value says so in the results, not only in the log.
      const error = linkNote(options, planned, planned.before ?? undefined) ?? null;
      results.set(line, { outcome: "unchanged", error, recordId: planned.recordId });
      const { recordId, before } = planned;
      recorded.push(
        recorder.add({ line, recordId, before, after: before, outcome: "unchanged", error }),
      );
    }
  }
  await Promise.all(recorded);
}

/** Sends one row: its result and the record answered, why the run stops, or undefined on an abort. */
async function sendOne(options: ExecuteOptions, planned: PlannedRow): Promise<Sent | undefined> {
  const { spec, signal } = options;
  let lost = false;
  const onAnswerLost = () => {
    lost = true;
  };
  try {
    const send = { signal, onAnswerLost };
    const sent = await sendRow(options.client, spec, planned.recordId, planned.body, send);
    const answer = sent.record;
    const recordId = answeredId(spec, answer, planned.recordId);
    const origin = !sent.existed ? "created" : options.resumed ? "found" : "existing";
    // The portal may keep another admin value than sent: "applied" alone would hide it.
    const note = linkNote(options, planned, answer, origin);
    const error = note ?? null;
    if (!sent.existed || options.resumed) {
      return { result: { outcome: "applied", error, recordId }, answer, note };
    }
    // A link someone made since the extract: this run changed nothing, and says how it differs.
    return { result: { outcome: "unchanged", error, recordId }, answer, note };
  } catch (error) {
    if (signal?.aborted) return undefined;
    const stop = portalStop(error);
    if (stop) return { stop, lost };
    const said = errorText(error);
    const message = lost ? `${said}${LOST_NOTE}` : said;
    return { result: { outcome: "failed", error: message, recordId: planned.recordId } };
  }
}

/**
 * Why a row was not sent, for the results file and `_changes`; `lost` when it was, but its answer
 * was lost before sending stopped (the portal may hold it: "not sent" would be wrong).
 */
function skipReason(stop: StopCause | undefined, lost: boolean, started: boolean): string {
  // Interrupted: only the rows under way then may have reached the portal.
  if (stop === undefined) {
    return started ? "interrupted before the portal confirmed it" : "not sent: interrupted";
  }
  const why = stop.kind === "portal" ? stop.reason : "an outcome could not be recorded";
  if (!lost) return `not sent: ${why}`;
  return `${LOST_PREFIX} and then sending stopped (${why}): the portal may hold the change; the next run sends the row again`;
}

/**
 * The warning when the link a create answered (made, or found by the check before it) holds
 * another admin value than its row asks: the local database did not know it, so the plan could
 * not warn, and "applied" alone would hide that the portal's link is not what the file says.
 */
function linkNote(
  options: ExecuteOptions,
  planned: PlannedRow,
  answer: AnsweredRecord | undefined,
  origin?: LinkOrigin,
): string | undefined {
  if (options.spec.kind !== "create" || answer === undefined) return undefined;
  const stored = answer.user_grp_group_admin;
  return adminNote(options.unit, planned.row.line, planned.body, stored, origin);
}

/** Applies the plan; answers each line's result. Rows not sent are `skipped`. */
export async function executePlan(options: ExecuteOptions): Promise<ExecuteResult> {
  const { signal, recorder } = options;
  const results = new Map<number, RowResult>();
  const notes: string[] = [];
  const queue = options.plan.filter((p) => p.status === "change");
  let next = 0;
  let sent = 0;
  let failed = 0;
  let portal: StopCause | undefined;
  /** Lines whose answer was lost before the stop their own sending met. */
  const unconfirmed = new Set<number>();
  /** Lines taken by a worker and not answered: under way when sending was interrupted. */
  const underWay = new Set<number>();
  const stopped = (): StopCause | undefined =>
    portal ?? (recorder.failure && { kind: "recording", ...recorder.failure });

  const record = (planned: PlannedRow, result: RowResult, answer?: AnsweredRecord) => {
    results.set(planned.row.line, result);
    const { line } = planned.row;
    const after = answer ?? planned.body;
    const { outcome, error, recordId } = result;
    // A link found there before this row was sent was what the portal held all along.
    const before = outcome === "unchanged" ? after : planned.before;
    return recorder.add({ line, recordId, before, after, outcome, error }, answer);
  };
  async function worker(): Promise<void> {
    while (next < queue.length && !signal?.aborted && stopped() === undefined) {
      const planned = queue[next++] as PlannedRow;
      underWay.add(planned.row.line);
      const outcome = await sendOne(options, planned);
      if (!outcome) return;
      underWay.delete(planned.row.line);
      if ("stop" in outcome) {
        portal ??= outcome.stop;
        if (outcome.lost) unconfirmed.add(planned.row.line);
        return;
      }
      if (outcome.note !== undefined) notes.push(outcome.note);
      // The next row waits until this one's outcome is in the journal.
      await record(planned, outcome.result, outcome.answer);
      sent++;
      if (outcome.result.outcome === "failed") failed++;
      options.onProgress?.(sent, failed, queue.length);
    }
  }
  try {
    await recordUnsent(options, recorder, results);
    const workers = Math.max(1, Math.min(options.concurrency, queue.length));
    if (stopped() === undefined) await Promise.all(Array.from({ length: workers }, worker));
    const skipped = queue.filter((planned) => !results.has(planned.row.line));
    await Promise.all(
      skipped.map((planned) => {
        const { line } = planned.row;
        const error = skipReason(stopped(), unconfirmed.has(line), underWay.has(line));
        return record(planned, { outcome: "skipped", error, recordId: planned.recordId });
      }),
    );
  } finally {
    await recorder.close();
  }
  return { results, stop: stopped(), notes };
}
