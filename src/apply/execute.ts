/**
 * Sends the rows of a change set that change something, a few at a time under the client's shared
 * limiter, and records each outcome (the answered record into the local table, the outcome into
 * `_changes`; see outcome-recorder.ts), so a rerun sends only what was not confirmed.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { LmsClient } from "../api/client.js";
import type { ChangeSetRef, Outcome } from "./changes-table.js";
import type { OpSpec } from "./ops.js";
import { OutcomeRecorder } from "./outcome-recorder.js";
import type { PlannedRow } from "./plan.js";
import { type AnsweredRecord, sendRow } from "./send-row.js";

export interface RowResult {
  readonly outcome: Outcome;
  readonly error: string | null;
  readonly recordId: number | null;
}

export interface ExecuteOptions {
  readonly client: LmsClient;
  readonly connection: DuckDBConnection;
  readonly spec: OpSpec;
  readonly ref: ChangeSetRef;
  readonly plan: readonly PlannedRow[];
  /** Rows sent at once (the client's limiter caps requests in flight anyway). */
  readonly concurrency: number;
  readonly checkFirst: boolean;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: (done: number, failed: number, total: number) => void;
}

const answeredId = (spec: OpSpec, record: AnsweredRecord, fallback: number | null) => {
  const key = spec.kind === "create" ? "user_grp_id" : (spec.idColumn as string);
  const id = Number(record[key]);
  return Number.isSafeInteger(id) ? id : fallback;
};

/** The rows that need no request: `applied` earlier (not recorded again) and `unchanged`. */
function recordUnsent(
  plan: readonly PlannedRow[],
  recorder: OutcomeRecorder,
  results: Map<number, RowResult>,
): void {
  for (const planned of plan) {
    const { line } = planned.row;
    if (planned.status === "done") {
      results.set(line, { outcome: "applied", error: null, recordId: planned.recordId });
    } else if (planned.status === "unchanged") {
      results.set(line, { outcome: "unchanged", error: null, recordId: planned.recordId });
      recorder.add({
        line,
        recordId: planned.recordId,
        before: planned.before,
        after: planned.before,
        outcome: "unchanged",
        error: null,
      });
    }
  }
}

/** Sends one row: its result and the record answered; undefined when stopped by an abort. */
async function sendOne(
  options: ExecuteOptions,
  planned: PlannedRow,
): Promise<{ result: RowResult; answer?: AnsweredRecord } | undefined> {
  const { spec, signal } = options;
  try {
    const answer = await sendRow(options.client, spec, planned.recordId, planned.body, {
      checkFirst: options.checkFirst,
      signal,
    });
    const recordId = answeredId(spec, answer, planned.recordId);
    return { result: { outcome: "applied", error: null, recordId }, answer };
  } catch (error) {
    if (signal?.aborted) return undefined;
    const message = error instanceof Error ? error.message : String(error);
    return { result: { outcome: "failed", error: message, recordId: planned.recordId } };
  }
}

/** Applies the plan; answers each line's result. Rows not sent because of an abort are `skipped`. */
export async function executePlan(options: ExecuteOptions): Promise<Map<number, RowResult>> {
  const { signal } = options;
  const results = new Map<number, RowResult>();
  const recorder = new OutcomeRecorder(options.connection, options.spec, options.ref);
  recordUnsent(options.plan, recorder, results);
  const queue = options.plan.filter((p) => p.status === "change");
  let next = 0;
  let sent = 0;
  let failed = 0;

  const record = (planned: PlannedRow, result: RowResult, answer?: AnsweredRecord) => {
    results.set(planned.row.line, result);
    recorder.add(
      {
        line: planned.row.line,
        recordId: result.recordId,
        before: planned.before,
        after: answer ?? planned.body,
        outcome: result.outcome,
        error: result.error,
      },
      answer,
    );
  };
  async function worker(): Promise<void> {
    while (next < queue.length && !signal?.aborted) {
      const planned = queue[next++] as PlannedRow;
      const outcome = await sendOne(options, planned);
      if (!outcome) return;
      record(planned, outcome.result, outcome.answer);
      sent++;
      if (outcome.result.outcome === "failed") failed++;
      options.onProgress?.(sent, failed, queue.length);
    }
  }
  try {
    const workers = Math.max(1, Math.min(options.concurrency, queue.length));
    await Promise.all(Array.from({ length: workers }, () => worker()));
    for (const planned of queue) {
      if (results.has(planned.row.line)) continue;
      const error = "interrupted before the portal confirmed it";
      record(planned, { outcome: "skipped", error, recordId: planned.recordId });
    }
  } finally {
    await recorder.close();
  }
  return results;
}
