/**
 * The extract pipeline's entry point: decides the run (new, or an interrupted one resumed),
 * checks the key with the portal, opens a staging sink per resource in the side file, fetches
 * everything, then merges into the database in one transaction that also marks the run
 * succeeded. The database is written only at the start and for the merge (see
 * src/load/extract-store.ts), so it can be read while the run fetches.
 */
import { setMaxListeners } from "node:events";
import type { DuckDBConnection } from "@duckdb/node-api";
import { type ClientOptions, createClient, type LmsClient } from "../api/client.js";
import { ConcurrencyControl } from "../api/concurrency-control.js";
import {
  DEFAULT_CLIENT_CONCURRENCY,
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_MERGE_WAIT_SECONDS,
} from "../config/defaults.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { doneKeys } from "../load/checkpoint.js";
import type { LmsDatabase } from "../load/database.js";
import { ExtractStore } from "../load/extract-store.js";
import { extractMemoryLimit, memoryLimit } from "../load/memory-limit.js";
import type { RunPace } from "../load/run-pace.js";
import { recordNotFound } from "../load/runs.js";
import { storedKeys } from "../load/stored-keys.js";
import { tableSizes } from "../load/table-sizes.js";
import { WriteIntoFileError } from "../load/write-into-file.js";
import type { Logger } from "../log/logger.js";
import type { ExtractedName } from "../resources/registry.js";
import { holdHeapGrowth } from "./heap-growth.js";
import { mergeRun } from "./merge-run.js";
import { extractionOf, selectResources } from "./plan.js";
import {
  decideAndStartRun,
  earliestCursor,
  type PendingKeyCheck,
  type RunDecision,
} from "./prepare-run.js";
import { Progress } from "./progress.js";
import {
  type ExtractPlan,
  type FetchOutcome,
  fetchAll,
  type ResourceOutcome,
} from "./run-extract.js";
import { fetchFailure } from "./run-outcome.js";
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
  /**
   * The database: a path (the database is then written only at the start and for the merge,
   * and read by others meanwhile), or a database this process holds open.
   */
  readonly db: string | LmsDatabase;
  /**
   * Seconds to wait for the database or the side file when another process holds it; undefined:
   * fail at once on the side file (another extract), wait DEFAULT_MERGE_WAIT_SECONDS for the
   * database (a reader).
   */
  readonly waitSeconds?: number;
  /** The configured DuckDB memory ceiling (the `duckdbMemoryLimit` setting), for a path. */
  readonly memoryLimit?: string;
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

/** Opens the staging sinks and reads what an earlier attempt finished. */
async function openSinks(
  options: RunExtractOptions,
  store: ExtractStore,
  connection: DuckDBConnection,
  runId: number,
  decision: RunDecision,
): Promise<{
  sinks: Map<ExtractedName, RecordSink>;
  done: Map<ExtractedName, ReadonlySet<string>>;
}> {
  const sinks = new Map<ExtractedName, RecordSink>();
  const done = new Map<ExtractedName, ReadonlySet<string>>();
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  // Each sink has its own connection, so they open side by side: one after the other, their
  // few statements each held up the first request by a tenth of a second. All of them settle
  // before a failure is reported: the store is closed next, and closing DuckDB under a
  // statement still running on a worker thread crashes the process.
  const opened = await Promise.allSettled(
    decision.resources.map(async (resource) => {
      if (options.dryRun) {
        sinks.set(resource, new CountingSink());
        return;
      }
      const sinkConnection = await store.connect();
      // A new run has just emptied the side file (applyRun); one created by this run has the
      // registry's tables. Then the writers open without asking DuckDB anything.
      const shape = { fresh: store.freshSide, empty: decision.resumeId === undefined };
      sinks.set(
        resource,
        await StagingSink.open({ connection: sinkConnection, runId, resource, batchRows, shape }),
      );
    }),
  );
  const failed = opened.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failed) throw failed.reason;
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
    throw await fetchFailure(undefined, error, signal?.aborted === true);
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

/** What fetching needs besides the plan: the storage, client, abort and progress. */
interface FetchContext {
  readonly store: ExtractStore;
  /** A connection to the side file, for the not-found ids. */
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
  const { store, connection, client, controller, progress } = context;
  const { runId } = plan;
  // Not-found ids are written as they come, in order, on the run's own connection.
  let notFoundWrites = Promise.resolve();
  const display = options.showProgress?.(progress);
  try {
    const fetched = await fetchAll(plan, {
      stored: storedKeys(store),
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
    return fetched;
  } catch (error) {
    await notFoundWrites.catch(() => {});
    const run = { store, runId, pace: runPaceOf(client) };
    throw await fetchFailure(run, error, options.signal?.aborted === true);
  } finally {
    display?.stop();
  }
}

/** The configured memory ceiling: an open database's own, or the one given with a path. */
function configuredMemoryLimit(options: RunExtractOptions): string | undefined {
  return typeof options.db === "string" ? options.memoryLimit : options.db.memoryLimit;
}

/** Opens the run's storage: waits as `waitSeconds` says (see RunExtractOptions). */
function openStore(options: RunExtractOptions): Promise<ExtractStore> {
  const { logger, signal, waitSeconds } = options;
  return ExtractStore.open(
    options.db,
    {
      side: { seconds: waitSeconds, logger, ...(signal ? { signal } : {}) },
      database: {
        seconds: waitSeconds ?? DEFAULT_MERGE_WAIT_SECONDS,
        logger,
        ...(signal ? { signal } : {}),
        purpose: "(the extract's records wait in the side file meanwhile)",
      },
    },
    configuredMemoryLimit(options),
  );
}

/** Runs an extract; throws LmsExportError (run marked failed or interrupted) if it cannot finish. */
export async function runExtract(options: RunExtractOptions): Promise<ExtractResult> {
  const controller = new AbortController();
  // Every request in flight listens on this signal; thousands of listeners are expected here.
  setMaxListeners(0, controller.signal);
  // Bad input is refused before the portal is asked anything.
  selectResources(options.only);
  const client = createClient({ ...options.clientOptions, signal: controller.signal });
  // The key is checked while the side file opens and the run is decided, which do not need it:
  // a run's first list request goes out a round trip or two sooner. It is awaited before the
  // run is written down, so a wrong key or URL still loses nothing.
  const keyCheck = checkKey(client, controller, options.signal);
  let store: ExtractStore;
  try {
    store = await openStore(options);
  } catch (error) {
    await stopClient(client, controller, keyCheck);
    throw error;
  }
  let merged = false;
  const releaseHeapGrowth = holdHeapGrowth();
  try {
    // The instance may be shared with reports that follow (`run`): its ceiling is lowered for the
    // extract only (see memory-limit.ts).
    await store.setMemoryLimit(extractMemoryLimit(configuredMemoryLimit(options)));
    const request = { ...options, pageSize: options.clientOptions.pageSize };
    const { decision, runId } = await decideAndStartRun(store, request, keyCheck);
    const result = await fetchAndStore(store, client, controller, runId, decision, options);
    merged = true;
    return result;
  } catch (error) {
    // The merge committed; only writing the database file failed: the staged rows are done with.
    if (error instanceof WriteIntoFileError) merged = true;
    throw error;
  } finally {
    await stopClient(client, controller, keyCheck);
    await store.setMemoryLimit(memoryLimit(configuredMemoryLimit(options))).catch(() => {});
    if (merged && !options.dryRun) await store.discard().catch(() => {});
    else store.close();
    releaseHeapGrowth();
  }
}

/** Starts checking the key; a failure is read where `result` is awaited, never as unhandled. */
function checkKey(
  client: LmsClient,
  controller: AbortController,
  signal: AbortSignal | undefined,
): PendingKeyCheck {
  let settled = false;
  const result = authenticate(client, controller, signal);
  const done = () => {
    settled = true;
  };
  result.then(done, done);
  return { result, settled: () => settled };
}

/**
 * Closes the client once the key check has settled: a run that fails before awaiting it (a
 * locked database, a bad --only) stops the check rather than waiting for the portal's answer.
 */
async function stopClient(
  client: LmsClient,
  controller: AbortController,
  keyCheck: PendingKeyCheck,
): Promise<void> {
  if (!keyCheck.settled()) controller.abort(new LmsExportError("interrupted", "stopped"));
  await keyCheck.result.catch(() => undefined);
  await client.close();
}

/** The run after it is written down: fetch into the side file, then merge into the database. */
async function fetchAndStore(
  store: ExtractStore,
  client: LmsClient,
  controller: AbortController,
  runId: number,
  decision: RunDecision,
  options: RunExtractOptions,
): Promise<ExtractResult> {
  const progress = new Progress(decision.resources);
  progress.watchPace(() => client.pace());
  if (decision.resumeId !== undefined) {
    // What the interrupted attempts staged shows from the start, not "0 rec".
    const sizes = await store.withDatabase("read", (connection) =>
      tableSizes(connection, store.side, decision.resources),
    );
    for (const [resource, size] of sizes) progress.received(resource, size.staged);
  }
  const connection = await store.connect();
  const { sinks, done } = await openSinks(options, store, connection, runId, decision);
  const plan: ExtractPlan = {
    runId,
    resources: decision.resources,
    mode: decision.mode,
    cursors: decision.cursors,
    resuming: decision.resumeId !== undefined,
    pageSize: decision.pageSize,
    sinks,
    done,
    confirmGone: decision.mode === "full" && options.dryRun !== true,
  };
  const fetched = await fetchRun(
    plan,
    { store, connection, client, controller, progress },
    options,
  );
  const pace = runPaceOf(client);
  const settings = {
    allowEmpty: options.allowEmpty === true,
    memoryLimit: configuredMemoryLimit(options),
    logger: options.logger,
  };
  const tables = options.dryRun ? {} : await mergeRun(store, plan, fetched, pace, settings);
  return {
    runId,
    mode: decision.mode,
    since: earliestCursor(decision.cursors),
    resources: fetched.resources,
    tables,
    requests: fetched.client.requests,
    retries: fetched.client.retries,
    pace,
  };
}
