/**
 * `apply`: a file of changes checked whole, compared with the local database, shown, and sent
 * row by row with every outcome recorded. The steps are split so the command can ask for
 * confirmation between the plan and the sending.
 */
import { setMaxListeners } from "node:events";
import type { DuckDBConnection } from "@duckdb/node-api";
import { watchAbort } from "../api/abort-watch.js";
import type { ClientOptions } from "../api/client.js";
import { createClient } from "../api/client.js";
import type { LmsExportError } from "../errors/lms-export-error.js";
import type { LmsDatabase } from "../load/database.js";
import { WriteIntoFileError, writeIntoFile } from "../load/write-into-file.js";
import { checkUnchanged } from "../tabular/file-stamp.js";
import { certificateNotes } from "./certificate-note.js";
import {
  appliedLines,
  type ChangeSetRef,
  changeSetId,
  changeSetStarted,
  startChangeSet,
} from "./changes-table.js";
import { controlCharacterProblems } from "./control-characters.js";
import { type ExecuteResult, executePlan, LOST_PREFIX, type RowResult } from "./execute.js";
import { foldJournal } from "./fold-journal.js";
import { readLocalState } from "./local-state.js";
import { type ApplyOp, type OpSpec, opSpec } from "./ops.js";
import { journalPath } from "./outcome-journal.js";
import { OutcomeRecorder } from "./outcome-recorder.js";
import {
  adminMismatches,
  countPlan,
  type PlanCounts,
  type PlannedRow,
  planChanges,
} from "./plan.js";
import { ChangeFileError } from "./problems.js";
import { type ChangeFile, readChangeFile } from "./read-changes.js";
import { parentLoops, unknownReferences } from "./references.js";
import { resultsPath, writeResults } from "./results-csv.js";
import { checkResultsPlace } from "./results-place.js";
import { spaceNotes } from "./space-note.js";
import { journalError, resultsError, type StopCause, stopError } from "./stop-cause.js";

export interface ApplyPlan {
  readonly spec: OpSpec;
  readonly file: ChangeFile;
  readonly ref: ChangeSetRef;
  readonly plan: readonly PlannedRow[];
  readonly counts: PlanCounts;
  /** Referenced ids the local database does not know (warnings unless strict). */
  readonly unknown: readonly string[];
  /**
   * What the file asks for that cannot be done and is left as it is, and text sent with spaces
   * at either end (warnings).
   */
  readonly notes: readonly string[];
  /** A run of this change set started before this one (see ExecuteOptions.resumed). */
  readonly resumed: boolean;
}

/**
 * Reads and checks the file at `path` and compares it with the database. Throws TabularError or
 * ChangeFileError for a file that cannot be applied (and, with `strict`, for unknown ids).
 */
export async function planApply(
  db: LmsDatabase,
  path: string,
  op: ApplyOp,
  options: { strict: boolean; shown?: string },
): Promise<ApplyPlan> {
  const spec = opSpec(op);
  const file = await readChangeFile(path, spec, options.shown);
  const connection = await db.connect();
  try {
    // Outcomes a run that did not finish left in its journal, so that `done` has them all.
    await foldJournal(connection, db.path);
    const local = await readLocalState(connection, spec, file.rows, file.unit);
    const loops = await parentLoops(connection, spec, file.rows, file.unit);
    if (loops) throw loops.toError(file.file);
    const references = await unknownReferences(connection, spec, file.rows, file.unit);
    const unknown = [...local.unknown, ...references];
    if (options.strict && unknown.length > 0) {
      const shown = unknown.slice(0, 20).join("; ");
      const more = unknown.length > 20 ? `; and ${unknown.length - 20} more` : "";
      throw new ChangeFileError(
        `${file.file}: ${unknown.length} ids not in the local database (--strict), nothing was sent: ${shown}${more}. Run extract first, or fix the ids`,
      );
    }
    const ref = { id: changeSetId(file.sha256, op), file: file.file, op };
    const done = await appliedLines(connection, ref.id);
    const resumed = await changeSetStarted(connection, ref.id);
    const plan = planChanges(spec, file.rows, local, done);
    const controls = controlCharacterProblems(plan, file.unit);
    if (controls) throw controls.toError(file.file);
    // Spaces first: one note a field at most, not to be crowded out of the 20 the command shows.
    const notes = [
      // Said, not refused: a script may well write a file of no changes on a quiet day.
      ...(file.rows.length === 0
        ? [`${file.file} has no rows of changes below its header: nothing to apply`]
        : []),
      ...spaceNotes(plan, file.unit),
      ...certificateNotes(plan, file.unit),
      ...(spec.kind === "create" ? adminMismatches(plan, file.unit) : []),
    ];
    const counts = countPlan(plan);
    return { spec, file, ref, plan, counts, unknown, notes, resumed };
  } finally {
    connection.closeSync();
  }
}

export interface ApplyOutcome {
  readonly results: ReadonlyMap<number, RowResult>;
  readonly resultsFile: string;
  readonly applied: number;
  readonly unchanged: number;
  readonly failed: readonly number[];
  readonly skipped: number;
  /** Why sending stopped before the end (a refused key, an outcome not recorded), if it did. */
  readonly stopped: LmsExportError | undefined;
  /** Links the portal holds with another admin value than their row asks (warnings). */
  readonly notes: readonly string[];
}

/**
 * A signal following `signal` that any number may listen to: undici adds a listener per request
 * in flight, more than Node's default of 10 at `--concurrency 16`, and Node would then print a
 * "possible memory leak" warning amid the progress (extract does the same for its client).
 */
function quietSignal(signal: AbortSignal | undefined): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  if (signal?.aborted) controller.abort(signal.reason);
  const stop = watchAbort(signal, () => controller.abort(signal?.reason));
  return { signal: controller.signal, stop };
}

/** Opens the record of outcomes and marks the change set started; nothing is sent yet. */
async function startRecording(
  db: LmsDatabase,
  connection: DuckDBConnection,
  planned: ApplyPlan,
): Promise<OutcomeRecorder> {
  const journal = journalPath(db.path);
  try {
    await startChangeSet(connection, planned.ref, planned.file.rows.length);
    return await OutcomeRecorder.open(connection, journal, planned.ref);
  } catch (error) {
    throw journalError(error, { database: db.path, journal }, false);
  }
}

/**
 * Writes the record of the run into the database file now: DuckDB ignores a failed write at
 * close, and the run would be reported as done with its record only in the `.wal` file. Answers
 * the failure, to be thrown once the results file is written: the portal changed all the same,
 * and the record stays in the `.wal` for the next open. Not after a recording that failed: the
 * journal holds the rest then, and that stop's line says what to do.
 */
async function writeRecordIntoFile(
  connection: DuckDBConnection,
  path: string,
  stop: StopCause | undefined,
): Promise<WriteIntoFileError | undefined> {
  if (stop?.kind === "recording") return undefined;
  try {
    await writeIntoFile(connection, path, "", "the record of the changes");
    return undefined;
  } catch (error) {
    if (error instanceof WriteIntoFileError) return error;
    throw error;
  }
}

/**
 * The failed write into the file, said after what the run did: the stop that ended sending, if
 * one did (the write failing after it must not hide what to do about it), and where the results
 * of each row are, which the summary line would have named.
 */
function unwrittenAfterRun(
  unwritten: WriteIntoFileError,
  stopped: LmsExportError | undefined,
  resultsFile: string,
): LmsExportError {
  const before = stopped === undefined ? "" : `${stopped.message}; then `;
  const message = `${before}${unwritten.message}; the results of each row are in ${resultsFile}`;
  return new WriteIntoFileError(unwritten.code, message, unwritten.reason, { cause: unwritten });
}

/** What executeApply is given besides the database, the file and its plan. */
interface ExecuteOptions {
  clientOptions: ClientOptions;
  concurrency: number;
  signal?: AbortSignal | undefined;
  onProgress?: (done: number, failed: number, total: number) => void;
}

/**
 * Sends the plan's changes and records every outcome, then writes the record into the database
 * file; answers what was done, and the failure of that write if it failed (see
 * writeRecordIntoFile).
 */
async function sendRecorded(
  db: LmsDatabase,
  planned: ApplyPlan,
  options: ExecuteOptions,
): Promise<{ executed: ExecuteResult; unwritten: WriteIntoFileError | undefined }> {
  const connection = await db.connect();
  // The requests and the pauses between a row's attempts listen to it, not to the caller's.
  const { signal, stop: unfollow } = quietSignal(options.signal);
  const client = createClient({ ...options.clientOptions, signal });
  try {
    const recorder = await startRecording(db, connection, planned);
    const executed = await executePlan({
      client,
      recorder,
      spec: planned.spec,
      plan: planned.plan,
      concurrency: options.concurrency,
      unit: planned.file.unit,
      resumed: planned.resumed,
      signal,
      onProgress: options.onProgress,
    });
    const unwritten = await writeRecordIntoFile(connection, db.path, executed.stop);
    return { executed, unwritten };
  } finally {
    unfollow();
    await client.close().catch(() => undefined);
    connection.closeSync();
  }
}

/** Sends the plan's changes, records every outcome, writes the results file beside `path`. */
export async function executeApply(
  db: LmsDatabase,
  path: string,
  planned: ApplyPlan,
  options: ExecuteOptions,
): Promise<ApplyOutcome> {
  await checkResultsPlace(path);
  // The plan is of the file as it was read: one changed since (still being written then, or
  // edited after the diff was shown) may not ask for what was shown.
  await checkUnchanged(path, planned.file.stamp, planned.file.file);
  const { executed, unwritten } = await sendRecorded(db, planned, options);
  const { results, stop, notes } = executed;
  const lines = (outcome: RowResult["outcome"]) =>
    [...results].filter(([, r]) => r.outcome === outcome).map(([line]) => line);
  const skipped = lines("skipped").length;
  // A row whose write went out before its answer was lost is skipped but may be applied.
  const lost = [...results.values()].filter(
    (r) => r.outcome === "skipped" && r.error?.startsWith(LOST_PREFIX) === true,
  ).length;
  const places = { database: db.path, journal: journalPath(db.path) };
  const stopped = stop && stopError(stop, { notSent: skipped - lost, lost }, places);
  const resultsFile = await writeResults(path, planned.file, planned.spec, results).catch(
    (error: unknown) => {
      // A disk too full for the results is also why recording stopped: that line says more.
      throw unwritten ?? stopped ?? resultsError(error, resultsPath(path), places);
    },
  );
  if (unwritten !== undefined) throw unwrittenAfterRun(unwritten, stopped, resultsFile);
  return {
    results,
    resultsFile,
    applied: lines("applied").length,
    unchanged: lines("unchanged").length,
    failed: lines("failed").sort((a, b) => a - b),
    skipped,
    stopped,
    notes,
  };
}
