/**
 * How a run's end is written into the database's `_runs`: its status, pace and what it recorded
 * in the side file; for a run that did not finish (failed or interrupted), also the error the
 * user sees.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { LmsClient } from "../api/client.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { ExtractStore } from "../load/extract-store.js";
import type { RunStatus } from "../load/meta-ddl.js";
import { type AttemptFigures, type RunPace, savePace } from "../load/pace-journal.js";
import { recordRunPace } from "../load/run-pace.js";
import {
  copyRunRecords,
  finishRun,
  type ResourceStats,
  recordResourceStats,
} from "../load/runs.js";
import type { ExtractedName } from "../resources/registry.js";
import { describeFailure, retryCannotCure } from "./describe-failure.js";

/** How a run ended, as `_runs` and `_run_resources` keep it. */
export interface RunEnd {
  readonly status: RunStatus;
  readonly message?: string;
  /** The pace of the attempt ending the run (the run's earlier attempts are in the side file). */
  readonly pace: AttemptFigures | undefined;
  /** Per-resource figures, known once the run reached its merge. */
  readonly resources?: ReadonlyMap<ExtractedName, ResourceStats> | undefined;
}

/**
 * Ends the run's `_runs` row with `status` (and `message`), its pace, its per-resource figures
 * and what it recorded in the side file, on a connection to the database: inside the merge's
 * transaction for a run that succeeded, on its own for one that did not.
 */
export async function recordRunEnd(
  connection: DuckDBConnection,
  side: string,
  runId: number,
  end: RunEnd,
): Promise<void> {
  await finishRun(connection, runId, end.status, end.message);
  if (end.pace) await recordRunPace(connection, side, runId, end.pace);
  if (end.resources) await recordResourceStats(connection, runId, end.resources);
  await copyRunRecords(connection, side, runId);
}

/**
 * The run's outcome is recorded in the database, with its pace and what it recorded in the side
 * file, even when recording it fails, without hiding the real error. After an interruption the
 * database is tried once: nobody waits on a Ctrl-C (the next run closes the row out).
 */
export async function recordOutcome(
  store: ExtractStore,
  runId: number,
  end: RunEnd & { readonly status: "failed" | "interrupted"; readonly message: string },
): Promise<void> {
  // Saved for the attempt that resumes the run, which records the pace of all its attempts.
  const { pace } = end;
  if (pace) {
    await store
      .withSide((connection) => savePace(connection, runId, pace.attempt, pace.pace))
      .catch(() => {});
  }
  await store
    .withDatabase("write", (connection) => recordRunEnd(connection, store.side, runId, end), {
      once: end.status === "interrupted",
    })
    .catch(() => {});
}

/** The client's pace over the run, as `_runs` keeps it. */
export function runPaceOf(client: LmsClient): RunPace {
  const pace = client.pace();
  return { min: pace.min, max: pace.max, final: pace.settled, overloads: pace.overloads };
}

/**
 * Turns a failure of the run before its merge (its fetch, or its storage once the run is written
 * down) into the error the user sees, with the run marked.
 */
export async function fetchFailure(
  run: { store: ExtractStore; runId: number; pace: AttemptFigures | undefined } | undefined,
  error: unknown,
  interrupted: boolean,
  pageSize?: number,
  fixedConcurrency?: number,
): Promise<LmsExportError> {
  const place = run?.store.path;
  const failure = describeFailure(error, interrupted, pageSize, place, fixedConcurrency);
  if (run) {
    const status = interrupted ? "interrupted" : "failed";
    await recordOutcome(run.store, run.runId, { status, message: failure.message, pace: run.pace });
  }
  // Resuming helps after an interruption or a portal failure, not after bad input, nor after a
  // refusal that the same requests would meet again.
  const badInput = ["bad-input", "not-found", "auth-refused"].includes(failure.code);
  const resumable = !badInput && run !== undefined && (interrupted || !retryCannotCure(error));
  const hint = resumable ? " (`lms-export extract --resume` continues from here)" : "";
  // A database this run created holds only the run's own record: "unchanged" would read as if
  // no file had been made, or as if records of an earlier run were there.
  const state = run?.store.newDatabase
    ? "the new database holds no records yet"
    : "the database is unchanged";
  return new LmsExportError(failure.code, `${failure.message}; ${state}${hint}`, {
    cause: error,
  });
}
