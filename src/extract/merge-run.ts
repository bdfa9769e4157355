/**
 * The end of a run: the staged records merged into the database in one transaction that also
 * records the run's figures, its outcome and what it recorded in the side file, then the database
 * file written.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { errorText } from "../errors/error-text.js";
import { isInterruption, LmsExportError } from "../errors/lms-export-error.js";
import { looksLikeFullDisk } from "../load/disk-space.js";
import { duckdbFirstLine, memoryHint } from "../load/duckdb-message.js";
import type { ExtractStore } from "../load/extract-store.js";
import { mergeMemoryLimit } from "../load/memory-limit.js";
import { mergeStaging } from "../load/merge.js";
import type { AttemptFigures, RunPace } from "../load/pace-journal.js";
import { holdsRecordsOf } from "../load/run-address.js";
import { recordedRunPace } from "../load/run-pace.js";
import { type ResourceStats, runRecordCounts } from "../load/runs.js";
import { type TableSize, tableSizes } from "../load/table-sizes.js";
import { WriteIntoFileError, writeIntoFile } from "../load/write-into-file.js";
import type { Logger } from "../log/logger.js";
import type { ExtractedName } from "../resources/registry.js";
import { refuseEmptying } from "./empty-guard.js";
import type { ExtractPlan, FetchOutcome } from "./fetch-plan.js";
import { extractionOf } from "./plan.js";
import { fetchFailure, recordOutcome, recordRunEnd } from "./run-outcome.js";

/** What the merge needs besides the plan and the fetch. */
export interface MergeSettings {
  readonly allowEmpty: boolean;
  /** The configured DuckDB memory ceiling, if any. */
  readonly memoryLimit: string | undefined;
  readonly logger: Logger;
}

/**
 * The per-resource figures recorded in `_run_resources`, on a connection to the database (`side`
 * names the side file).
 */
async function resourceStats(
  connection: DuckDBConnection,
  side: string,
  plan: ExtractPlan,
  fetched: FetchOutcome,
  sizes: ReadonlyMap<ExtractedName, TableSize>,
): Promise<Map<ExtractedName, ResourceStats>> {
  const retries = retriesByResource(fetched);
  const recorded = await runRecordCounts(connection, side, plan.runId);
  const stats = new Map<ExtractedName, ResourceStats>();
  for (const [resource, outcome] of fetched.resources) {
    // Records staged by the interrupted attempts count too: what the run loads is what is staged.
    if (plan.resuming) outcome.records = sizes.get(resource)?.staged ?? outcome.records;
    // So do the ids they found unknown, which the run records in _not_found: a lookup finished
    // then is not asked again, and the summary and _run_resources would say none was missing.
    if (plan.resuming) outcome.notFound = recorded.notFound.get(resource) ?? 0;
    // The rejects are counted as the database will hold them, for every run: a resumed run's
    // earlier attempts stored theirs, and a record read twice (a list listed again, or repeated
    // by its paging) is held once.
    outcome.rejects = recorded.rejects.get(resource) ?? 0;
    stats.set(resource, {
      records: outcome.records,
      requests: outcome.requests,
      retries: retries.get(resource) ?? 0,
      rejects: outcome.rejects,
      notFound: outcome.notFound,
      durationMs: outcome.durationMs,
    });
  }
  return stats;
}

/**
 * The rows of the largest table, before or after the merge: a primary key index is built or
 * loaded whole during the merge, so DuckDB is given room for the largest one.
 */
function largestTable(sizes: ReadonlyMap<ExtractedName, TableSize>): number {
  return Math.max(0, ...[...sizes.values()].map((size) => Math.max(size.rows, size.staged)));
}

/** What the merge made: the rows of each table, and the run's pace as `_runs` now holds it. */
export interface MergedRun {
  readonly tables: Partial<Record<ExtractedName, number>>;
  readonly pace: RunPace | undefined;
}

/**
 * Merges the staged records into the database in one transaction that also records the run's
 * figures, its outcome and what it recorded in the side file; then writes the database file.
 */
export async function mergeRun(
  store: ExtractStore,
  plan: ExtractPlan,
  fetched: FetchOutcome,
  pace: AttemptFigures,
  options: MergeSettings,
): Promise<MergedRun> {
  const { runId } = plan;
  // Recorded with the run's end: in the merge's transaction, or with the failure.
  let resources: Map<ExtractedName, ResourceStats> | undefined;
  let recorded: RunPace | undefined;
  try {
    return await store.withDatabase("write", async (connection) => {
      const sizes = await tableSizes(connection, store.side, plan.resources, plan.resuming);
      const figures = await resourceStats(connection, store.side, plan, fetched, sizes);
      resources = figures;
      if (plan.mode === "full" && !options.allowEmpty) refuseEmptying(sizes);
      await store.setMemoryLimit(mergeMemoryLimit(largestTable(sizes), options.memoryLimit));
      const mergeStarted = Date.now();
      const tables = await mergeStaging(connection, store.side, plan.resources, plan.mode, {
        keepRejectedOf: runId,
        ...((await holdsRecordsOf(connection, runId)) ? { keepAppliedDuring: runId } : {}),
        beforeCommit: async (tx) => {
          const end = { status: "succeeded", pace, resources: figures } as const;
          await recordRunEnd(tx, store.side, runId, end);
          // What the summary prints: the row's pace, that of every attempt at the run.
          recorded = await recordedRunPace(tx, runId);
        },
      });
      options.logger.info("merged the staged records into the tables", {
        runId,
        seconds: (Date.now() - mergeStarted) / 1000,
      });
      await writeIntoFile(connection, store.path, store.databaseCatalog);
      return { tables, pace: recorded };
    });
  } catch (error) {
    // Committed already: the run succeeded, its records wait in the .wal file.
    if (error instanceof WriteIntoFileError) throw error;
    // Interrupted while it waited for a reader to let go: marked so (one try), resumable.
    if (isInterruption(error)) {
      throw await fetchFailure({ store, runId, pace }, error, true);
    }
    const text = errorText(error);
    const message = duckdbFirstLine(text);
    await recordOutcome(store, runId, {
      status: "failed",
      message: message || "merge failed",
      pace,
      resources,
    });
    if (error instanceof LmsExportError) throw error;
    const memory = memoryHint(text);
    const advice = memory
      ? `${memory} with \`lms-export extract --resume\``
      : ": free disk space or fix the database's folder, then run `lms-export extract --resume`";
    throw new LmsExportError(
      memory ? "out-of-memory" : looksLikeFullDisk(text) ? "disk-full" : "storage-failed",
      `storing the extracted records failed (${message}); the tables are unchanged${advice}`,
      { cause: error },
    );
  }
}

/** Client retries attributed to resources through the operation that made them. */
function retriesByResource(fetched: FetchOutcome): Map<ExtractedName, number> {
  const found = new Map<ExtractedName, number>();
  for (const resource of fetched.resources.keys()) {
    found.set(resource, fetched.client.byOperation[extractionOf(resource).operation]?.retries ?? 0);
  }
  return found;
}
