/**
 * The extract pipeline's entry point: decides the run (new, or an interrupted one resumed),
 * checks the key with the portal, opens a staging sink per resource, fetches everything, then
 * merges in one transaction that also marks the run succeeded.
 */
import { setMaxListeners } from "node:events";
import type { DuckDBConnection } from "@duckdb/node-api";
import { type ClientOptions, createClient, type LmsClient } from "../api/client.js";
import { ConcurrencyControl } from "../api/concurrency-control.js";
import { DEFAULT_CLIENT_CONCURRENCY, DEFAULT_MAX_CONCURRENCY } from "../config/defaults.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { clearCheckpoints, doneKeys } from "../load/checkpoint.js";
import type { LmsDatabase } from "../load/database.js";
import { looksLikeFullDisk } from "../load/disk-space.js";
import { duckdbFirstLine, memoryHint } from "../load/duckdb-message.js";
import { extractMemoryLimit, memoryLimit, mergeMemoryLimit } from "../load/memory-limit.js";
import { mergeStaging } from "../load/merge.js";
import { type RunPace, recordRunPace } from "../load/run-pace.js";
import {
  finishRun,
  type ResourceStats,
  recordNotFound,
  recordResourceStats,
} from "../load/runs.js";
import { tableSizes } from "../load/table-sizes.js";
import { writeIntoFile } from "../load/write-into-file.js";
import type { Logger } from "../log/logger.js";
import type { ExtractedName } from "../resources/registry.js";
import { describeFailure } from "./describe-failure.js";
import { refuseEmptying } from "./empty-guard.js";
import { holdHeapGrowth } from "./heap-growth.js";
import { extractionOf } from "./plan.js";
import { applyRun, decideRun, earliestCursor, type RunDecision } from "./prepare-run.js";
import { Progress } from "./progress.js";
import {
  type ExtractPlan,
  type FetchOutcome,
  fetchAll,
  type ResourceOutcome,
} from "./run-extract.js";
import { CountingSink, type RecordSink, StagingSink } from "./sink.js";

export { DEFAULT_LOOKBACK_MS } from "./prepare-run.js";

/**
 * Rows per commit of a staging table (a commit also comes every second, see sink.ts); each commit
 * has a fixed cost (a WAL sync) and carries its checkpoint marks. Measured trade-off: commits of a
 * whole DuckDB row group (122,880 rows) skip the WAL and cost about a third less CPU, but raised
 * the peak memory of a 2M-take run from about 375 MB to 400-470 MB; 32k rows keep it flat.
 */
export const DEFAULT_BATCH_ROWS = 32_768;

export interface RunExtractOptions {
  readonly db: LmsDatabase;
  readonly clientOptions: Omit<ClientOptions, "signal">;
  readonly mode: "full" | "incremental";
  /** Explicit incremental cursor (`--since`); implies incremental. */
  readonly since?: Date;
  readonly lookbackMs?: number;
  readonly resume?: boolean;
  readonly only?: readonly string[];
  /** Let a full run empty a table whose list now answers no records. */
  readonly allowEmpty?: boolean;
  readonly batchRows?: number;
  readonly logger: Logger;
  readonly signal?: AbortSignal;
  /** Starts a progress display; its stop() is called when fetching ends. */
  readonly showProgress?: (progress: Progress) => { stop(): void };
  /** Options recorded in `_runs` (never secrets). */
  readonly runOptions?: Readonly<Record<string, unknown>>;
  /** Fetch and parse only, store nothing (the benchmark's floor). */
  readonly dryRun?: boolean;
}

export interface ExtractResult {
  readonly runId: number;
  readonly mode: "full" | "incremental";
  /** The earliest incremental cursor, or null for a full run. */
  readonly since: Date | null;
  readonly resources: ReadonlyMap<ExtractedName, ResourceOutcome>;
  /** Rows in each merged table after the run. */
  readonly tables: Readonly<Partial<Record<ExtractedName, number>>>;
  readonly requests: number;
  readonly retries: number;
  /** The limit on requests in flight over the run, and the portal's "too busy" answers. */
  readonly pace: RunPace;
}

/** The run's outcome is recorded even when recording it fails, without hiding the real error. */
async function recordOutcome(
  connection: DuckDBConnection,
  runId: number,
  status: "failed" | "interrupted",
  message: string,
): Promise<void> {
  await finishRun(connection, runId, status, message).catch(() => {});
}

/** Turns a failure of the fetch into the error the user sees, with the run marked. */
async function fetchFailure(
  connection: DuckDBConnection | undefined,
  runId: number | undefined,
  error: unknown,
  interrupted: boolean,
): Promise<LmsExportError> {
  const failure = describeFailure(error, interrupted);
  if (connection && runId !== undefined) {
    await recordOutcome(connection, runId, interrupted ? "interrupted" : "failed", failure.message);
  }
  // Resuming helps after an interruption or a portal failure, not after bad input.
  const badInput = ["bad-input", "not-found", "auth-refused"].includes(failure.code);
  const hint =
    badInput || runId === undefined ? "" : " (`lms-export extract --resume` continues from here)";
  return new LmsExportError(failure.code, `${failure.message}; the database is unchanged${hint}`, {
    cause: error,
  });
}

/** Opens the staging sinks and reads what an earlier attempt finished. */
async function openSinks(
  options: RunExtractOptions,
  connection: DuckDBConnection,
  runId: number,
  decision: RunDecision,
  sinkConnections: DuckDBConnection[],
): Promise<{
  sinks: Map<ExtractedName, RecordSink>;
  done: Map<ExtractedName, ReadonlySet<string>>;
}> {
  const sinks = new Map<ExtractedName, RecordSink>();
  const done = new Map<ExtractedName, ReadonlySet<string>>();
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  // Each sink has its own connection, so they open side by side: one after the other, their
  // few statements each held up the first request by a tenth of a second.
  await Promise.all(
    decision.resources.map(async (resource) => {
      if (options.dryRun) {
        sinks.set(resource, new CountingSink());
        return;
      }
      const sinkConnection = await options.db.connect();
      sinkConnections.push(sinkConnection);
      sinks.set(
        resource,
        await StagingSink.open({ connection: sinkConnection, runId, resource, batchRows }),
      );
    }),
  );
  if (decision.resumeId !== undefined) {
    for (const resource of decision.resources) {
      done.set(
        resource,
        await doneKeys(connection, runId, resource, extractionOf(resource).checkpoint),
      );
    }
  }
  return { sinks, done };
}

function runPaceOf(client: LmsClient): RunPace {
  const pace = client.pace();
  return { min: pace.min, max: pace.max, final: pace.current, overloads: pace.overloads };
}

/** Checks the key with the portal; a failure is the error the user sees. */
async function authenticate(
  client: LmsClient,
  controller: AbortController,
  signal: AbortSignal | undefined,
): Promise<void> {
  const stop = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", stop, { once: true });
  try {
    await client.authenticate();
  } catch (error) {
    throw await fetchFailure(undefined, undefined, error, signal?.aborted === true);
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}

/**
 * Twice the concurrency per fan-out queue: while the takes fill the slots, more of them wait in
 * the limiter, so a freed slot sends its next request at once instead of after its answer has
 * been processed. Together with after-queued-writes.ts the two gain about 0.03 on the latency
 * benchmark's ratio; this one alone, nothing measurable. An adaptive pace may rise to its
 * ceiling, so the queues are sized for that.
 */
function fanoutWorkers(options: RunExtractOptions): number {
  return (
    2 *
    ConcurrencyControl.ceiling(
      options.clientOptions.concurrency ?? DEFAULT_CLIENT_CONCURRENCY,
      options.clientOptions.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
    )
  );
}

/** What fetching needs besides the plan: the run's connection, client, abort and progress. */
interface FetchContext {
  readonly connection: DuckDBConnection;
  readonly client: LmsClient;
  readonly controller: AbortController;
  readonly progress: Progress;
}

/** Fetches the plan with the progress shown; a failure is the error the user sees, run marked. */
async function fetchRun(
  plan: ExtractPlan,
  context: FetchContext,
  options: RunExtractOptions,
): Promise<FetchOutcome> {
  const { connection, client, controller, progress } = context;
  const { runId } = plan;
  // Not-found ids are written as they come, in order, on the run's own connection.
  let notFoundWrites = Promise.resolve();
  const display = options.showProgress?.(progress);
  try {
    const fetched = await fetchAll(plan, {
      connection,
      client,
      controller,
      workers: fanoutWorkers(options),
      logger: options.logger,
      progress,
      signal: options.signal,
      onNotFound: (resource, id) => {
        notFoundWrites = notFoundWrites.then(() =>
          recordNotFound(connection, runId, resource, [id]),
        );
        return notFoundWrites;
      },
    });
    await notFoundWrites;
    await recordRunPace(connection, runId, runPaceOf(client));
    return fetched;
  } catch (error) {
    await notFoundWrites.catch(() => {});
    await recordRunPace(connection, runId, runPaceOf(client)).catch(() => {});
    throw await fetchFailure(connection, runId, error, options.signal?.aborted === true);
  } finally {
    display?.stop();
  }
}

/** Runs an extract; throws LmsExportError (run marked failed or interrupted) if it cannot finish. */
export async function runExtract(options: RunExtractOptions): Promise<ExtractResult> {
  const connection = await options.db.connect();
  const sinkConnections: DuckDBConnection[] = [];
  const controller = new AbortController();
  // Every request in flight listens on this signal; thousands of listeners are expected here.
  setMaxListeners(0, controller.signal);
  let client: LmsClient | undefined;
  const releaseHeapGrowth = holdHeapGrowth();
  try {
    // The instance may be shared with reports that follow (`run`): its ceiling is lowered for the
    // extract only (see memory-limit.ts).
    await connection.run(`SET memory_limit = '${extractMemoryLimit(options.db.memoryLimit)}'`);
    const request = { ...options, pageSize: options.clientOptions.pageSize };
    const decision = await decideRun(connection, request);
    client = createClient({
      ...options.clientOptions,
      ...(decision.pageSize !== undefined ? { pageSize: decision.pageSize } : {}),
      signal: controller.signal,
    });
    // The key is checked before anything is written, so a wrong key or URL loses nothing.
    await authenticate(client, controller, options.signal);
    const runId = await applyRun(connection, decision, request);
    const progress = new Progress(decision.resources);
    const paced = client;
    progress.watchPace(() => paced.pace());
    if (decision.resumeId !== undefined) {
      // What the interrupted attempts staged shows from the start, not "0 rec".
      for (const [resource, size] of await tableSizes(connection, decision.resources)) {
        progress.received(resource, size.staged);
      }
    }
    const { sinks, done } = await openSinks(options, connection, runId, decision, sinkConnections);
    const plan: ExtractPlan = {
      runId,
      resources: decision.resources,
      mode: decision.mode,
      cursors: decision.cursors,
      resuming: decision.resumeId !== undefined,
      sinks,
      done,
      confirmGone: decision.mode === "full" && options.dryRun !== true,
    };
    const fetched = await fetchRun(plan, { connection, client, controller, progress }, options);
    const tables = options.dryRun ? {} : await store(connection, runId, plan, fetched, options);
    if (!options.dryRun) await writeIntoFile(connection, options.db.path);
    return {
      runId,
      mode: decision.mode,
      since: earliestCursor(decision.cursors),
      resources: fetched.resources,
      tables,
      requests: fetched.client.requests,
      retries: fetched.client.retries,
      pace: runPaceOf(client),
    };
  } finally {
    await client?.close();
    await connection
      .run(`SET memory_limit = '${memoryLimit(options.db.memoryLimit)}'`)
      .catch(() => {});
    for (const sinkConnection of sinkConnections) sinkConnection.closeSync();
    connection.closeSync();
    releaseHeapGrowth();
  }
}

/** Records the run's figures and merges the staged records in one transaction. */
async function store(
  connection: DuckDBConnection,
  runId: number,
  plan: ExtractPlan,
  fetched: FetchOutcome,
  options: RunExtractOptions,
): Promise<Partial<Record<ExtractedName, number>>> {
  try {
    const retries = retriesByResource(fetched);
    const sizes = await tableSizes(connection, plan.resources);
    const stats = new Map<ExtractedName, ResourceStats>();
    for (const [resource, outcome] of fetched.resources) {
      // Records staged by the interrupted attempts count too: what the run loads is what is staged.
      if (plan.resuming) outcome.records = sizes.get(resource)?.staged ?? outcome.records;
      stats.set(resource, {
        records: outcome.records,
        requests: outcome.requests,
        retries: retries.get(resource) ?? 0,
        rejects: outcome.rejects,
        notFound: outcome.notFound,
        durationMs: outcome.durationMs,
      });
    }
    await recordResourceStats(connection, runId, stats);
    if (plan.mode === "full" && !options.allowEmpty) refuseEmptying(sizes);
    // A primary key index is built or loaded whole during the merge: give DuckDB room for the
    // largest one.
    const largest = Math.max(
      0,
      ...[...sizes.values()].map((size) => Math.max(size.rows, size.staged)),
    );
    await connection.run(
      `SET memory_limit = '${mergeMemoryLimit(largest, options.db.memoryLimit)}'`,
    );
    const mergeStarted = Date.now();
    const tables = await mergeStaging(connection, plan.resources, plan.mode, {
      keepRejectedOf: runId,
      beforeCommit: async (tx) => {
        await finishRun(tx, runId, "succeeded");
        await clearCheckpoints(tx, runId);
      },
    });
    options.logger.info("merged the staged records into the tables", {
      runId,
      seconds: (Date.now() - mergeStarted) / 1000,
    });
    return tables;
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const message = duckdbFirstLine(text);
    await recordOutcome(connection, runId, "failed", message || "merge failed");
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
