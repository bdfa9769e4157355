/**
 * Sends the rows of a change set that change something, a few at a time under the client's shared
 * limiter, and records each outcome as soon as it is known: the answered record into the local
 * table and the outcome into `_changes`, in one transaction, so an interrupted run leaves exactly
 * what was confirmed and a rerun sends only the rest.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { LmsClient } from "../api/client.js";
import { inTransaction } from "../load/merge.js";
import { type ChangeSetRef, insertOutcome, type Outcome } from "./changes-table.js";
import type { OpSpec } from "./ops.js";
import type { PlannedRow } from "./plan.js";
import { type AnsweredRecord, sendRow } from "./send-row.js";
import { upsertAnswer } from "./upsert-answer.js";

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

/** One statement queue over the connection: DuckDB runs one transaction per connection at a time. */
function serialised() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };
}

/** Records the rows that need no request (unchanged) and answers the result of every row by line. */
async function recordUnchanged(
  options: ExecuteOptions,
  results: Map<number, RowResult>,
): Promise<void> {
  for (const planned of options.plan) {
    if (planned.status === "done") {
      results.set(planned.row.line, {
        outcome: "applied",
        error: null,
        recordId: planned.recordId,
      });
    }
  }
  const unchanged = options.plan.filter((p) => p.status === "unchanged");
  if (unchanged.length === 0) return;
  await inTransaction(options.connection, async () => {
    for (const planned of unchanged) {
      const result: RowResult = { outcome: "unchanged", error: null, recordId: planned.recordId };
      results.set(planned.row.line, result);
      await insertOutcome(options.connection, options.ref, {
        line: planned.row.line,
        recordId: planned.recordId,
        before: planned.before,
        after: planned.before,
        outcome: "unchanged",
        error: null,
      });
    }
  });
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

/** Rows an abort kept from being confirmed: `skipped`, to be sent by the next run. */
async function recordSkipped(
  options: ExecuteOptions,
  skipped: readonly PlannedRow[],
  results: Map<number, RowResult>,
): Promise<void> {
  const { connection, ref } = options;
  await inTransaction(connection, async () => {
    for (const planned of skipped) {
      const error = "interrupted before the portal confirmed it";
      results.set(planned.row.line, { outcome: "skipped", error, recordId: planned.recordId });
      await insertOutcome(connection, ref, {
        line: planned.row.line,
        recordId: planned.recordId,
        before: planned.before,
        after: planned.body,
        outcome: "skipped",
        error,
      });
    }
  });
}

/** Applies the plan; answers each line's result. Rows not sent because of an abort are `skipped`. */
export async function executePlan(options: ExecuteOptions): Promise<Map<number, RowResult>> {
  const { connection, spec, ref, signal } = options;
  const results = new Map<number, RowResult>();
  await recordUnchanged(options, results);
  const queue = options.plan.filter((p) => p.status === "change");
  const write = serialised();
  let next = 0;
  let failed = 0;

  async function one(planned: PlannedRow): Promise<void> {
    const sent = await sendOne(options, planned);
    if (!sent) return;
    const { result, answer } = sent;
    await write(() =>
      inTransaction(connection, async () => {
        if (answer) await upsertAnswer(connection, spec, answer);
        await insertOutcome(connection, ref, {
          line: planned.row.line,
          recordId: result.recordId,
          before: planned.before,
          after: answer ?? planned.body,
          outcome: result.outcome,
          error: result.error,
        });
      }),
    );
    results.set(planned.row.line, result);
    if (result.outcome === "failed") failed++;
    options.onProgress?.(results.size - (options.plan.length - queue.length), failed, queue.length);
  }

  async function worker(): Promise<void> {
    while (next < queue.length && !signal?.aborted) await one(queue[next++] as PlannedRow);
  }
  const workers = Math.max(1, Math.min(options.concurrency, queue.length));
  await Promise.all(Array.from({ length: workers }, () => worker()));

  const skipped = queue.filter((p) => !results.has(p.row.line));
  if (skipped.length > 0) await write(() => recordSkipped(options, skipped, results));
  return results;
}
