/**
 * The extract pipeline's entry point: decides the run (new, or an interrupted one resumed), checks
 * the key, opens a staging sink per resource in the side file, fetches everything, then merges
 * into the database in one transaction that also marks the run succeeded. The database is written
 * only at the start and for the merge (src/load/extract-store.ts), so it can be read while the run
 * fetches. A new full run fetches once the key is accepted, while its storage is made ready.
 */
import { setMaxListeners } from "node:events";
import { type ClientOptions, createClient, type LmsClient } from "../api/client.js";
import { ConcurrencyControl } from "../api/concurrency-control.js";
import { DEFAULT_CLIENT_CONCURRENCY, DEFAULT_MAX_CONCURRENCY } from "../config/defaults.js";
import type { LmsDatabase } from "../load/database.js";
import { memoryLimit } from "../load/memory-limit.js";
import type { RunPace } from "../load/pace-journal.js";
import { recordNotFound } from "../load/runs.js";
import { storedKeys } from "../load/stored-keys.js";
import { tableSizes } from "../load/table-sizes.js";
import { WriteIntoFileError } from "../load/write-into-file.js";
import type { Logger } from "../log/logger.js";
import type { ExtractedName } from "../resources/registry.js";
import { fixedConcurrency } from "./busy-hint.js";
import { filesBefore, notOurDatabase, removeCreated } from "./created-files.js";
import { holdHeapGrowth } from "./heap-growth.js";
import { checkKey, stopClient } from "./key-check.js";
import { type MergedRun, mergeRun } from "./merge-run.js";
import { openStore, type StoreOpening } from "./open-store.js";
import { PendingSink, pendingStoredKeys } from "./pending-sink.js";
import { selectResources } from "./plan.js";
import {
  decidedInAdvance,
  earliestCursor,
  type PendingKeyCheck,
  type RunDecision,
  type RunRequest,
} from "./prepare-run.js";
import { Progress } from "./progress.js";
import {
  type ExtractPlan,
  type FetchOutcome,
  type FetchPlan,
  fetchAll,
  type ResourceOutcome,
} from "./run-extract.js";
import { fetchFailure, runPaceOf } from "./run-outcome.js";
import { prepareStorage, type RunStorage, type StorageSettings } from "./run-storage.js";
import type { RecordSink } from "./sink.js";

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
  /** A full run replacing another address's records says nothing (see same-portal.ts). */
  readonly portalChangeExpected?: boolean;
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
  /** Requests in flight (their limit) and "too busy" answers, as the run's `_runs` row has them. */
  readonly pace: RunPace;
}

/**
 * Twice the concurrency per fan-out queue: while the takes fill the slots, more of them wait in
 * the limiter, so a freed slot sends its next request at once instead of after its answer has
 * been processed. Together with after-queued-writes.ts the two gain about 0.03 on the latency
 * benchmark's ratio; this one alone, nothing measurable. An adaptive pace may rise to its
 * ceiling, so the queues are sized for that.
 */
function fanoutWorkers(options: RunExtractOptions): number {
  const { concurrency, maxConcurrency } = options.clientOptions;
  const fixed = concurrency ?? DEFAULT_CLIENT_CONCURRENCY;
  return 2 * ConcurrencyControl.ceiling(fixed, maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
}

/** What fetching needs besides the plan: the storage (perhaps still opening), client, progress. */
interface FetchContext {
  readonly storage: Promise<RunStorage>;
  readonly client: LmsClient;
  readonly controller: AbortController;
  readonly progress: Progress;
}

/** Fetches the plan with the progress shown; a failure is the error the user sees, run marked. */
async function fetchRun(
  plan: FetchPlan,
  context: FetchContext,
  options: RunExtractOptions,
): Promise<FetchOutcome> {
  const { storage, client, controller, progress } = context;
  // Not-found ids are written as they come, in order, on the run's own connection.
  let notFoundWrites = Promise.resolve();
  const display = options.showProgress?.(progress);
  try {
    const fetched = await fetchAll(plan, {
      stored: pendingStoredKeys(storage.then(storedKeys)),
      client,
      controller,
      workers: fanoutWorkers(options),
      logger: options.logger,
      progress,
      signal: options.signal,
      onNotFound: (resource, id) => {
        notFoundWrites = notFoundWrites.then(async () => {
          const { connection, runId } = await storage;
          await recordNotFound(connection, runId, resource, [id]);
        });
        return notFoundWrites;
      },
    });
    await notFoundWrites;
    return fetched;
  } catch (error) {
    await notFoundWrites.catch(() => {});
    // A run whose storage failed was never written down: that failure is the one reported.
    const ready = await storage.catch(() => undefined);
    const run = ready && { store: ready.store, runId: ready.runId, pace: ready.journal.now() };
    const fixed = fixedConcurrency(client.pace());
    throw await fetchFailure(run, error, options.signal?.aborted === true, plan.pageSize, fixed);
  } finally {
    display?.stop();
  }
}

/** The configured memory ceiling: an open database's own, or the one given with a path. */
function configuredMemoryLimit(options: RunExtractOptions): string | undefined {
  return typeof options.db === "string" ? options.memoryLimit : options.db.memoryLimit;
}

/** Runs an extract; throws LmsExportError (run marked failed or interrupted) if it cannot finish. */
export async function runExtract(options: RunExtractOptions): Promise<ExtractResult> {
  const controller = new AbortController();
  // Every request in flight listens on this signal; thousands of listeners are expected here.
  setMaxListeners(0, controller.signal);
  // Bad input is refused before the portal is asked anything.
  selectResources(options.only);
  // Before any request: see RunRequest.startedAt.
  const request = runRequest(options, new Date());
  const client = createClient({ ...options.clientOptions, signal: controller.signal });
  // The key is checked while the side file opens and the run is decided, which do not need it:
  // a run's first list request goes out a round trip or two sooner. It is awaited before the
  // run is written down, so a wrong key or URL still loses nothing.
  const keyCheck = checkKey(client, controller, options.signal);
  const before = filesBefore(options.db);
  const opening = openStore({
    db: options.db,
    waitSeconds: options.waitSeconds,
    logger: options.logger,
    signal: options.signal,
    memoryLimit: configuredMemoryLimit(options),
  });
  // A refused key ends the waits to start: the run cannot go on (see open-store.ts).
  keyCheck.result.catch((error: unknown) => opening.stop.abort(error));
  const run: ExtractRunContext = { options, request, client, controller, keyCheck, opening };
  const advance = decidedInAdvance(request);
  let ended: "merged" | "foreign" | undefined;
  const releaseHeapGrowth = holdHeapGrowth();
  try {
    const result = advance ? await extractAhead(run, advance) : await extractInTurn(run);
    ended = "merged";
    return result;
  } catch (error) {
    // The merge committed; only writing the database file failed: the staged rows are done with.
    if (error instanceof WriteIntoFileError) ended = "merged";
    if (notOurDatabase(error)) ended = "foreign";
    throw error;
  } finally {
    await stopClient(client, controller, keyCheck);
    const store = await opening.store.catch(() => undefined);
    if (store) {
      await store.setMemoryLimit(memoryLimit(configuredMemoryLimit(options))).catch(() => {});
      if (ended === "merged" && !options.dryRun) await store.discard().catch(() => {});
      else store.close();
    }
    const refused = await keyCheck.result.then(
      () => ended === "foreign",
      () => true,
    );
    if (refused && before) await removeCreated(before, opening.sideHeld).catch(() => {});
    releaseHeapGrowth();
  }
}

/** One run's parts, from the start of `runExtract`. */
interface ExtractRunContext {
  readonly options: RunExtractOptions;
  readonly request: RunRequest;
  readonly client: LmsClient;
  readonly controller: AbortController;
  readonly keyCheck: PendingKeyCheck;
  readonly opening: StoreOpening;
}

/** What the run asks for, as the decision reads it. */
function runRequest(options: RunExtractOptions, startedAt: Date): RunRequest {
  // Always recorded: the address tells one portal's records from another's (same-portal.ts).
  const runOptions = { baseUrl: options.clientOptions.baseUrl, ...options.runOptions };
  return { ...options, runOptions, pageSize: options.clientOptions.pageSize, startedAt };
}

/** How the run's storage is made ready. */
function storageSettings(run: ExtractRunContext): StorageSettings {
  const { options, request } = run;
  return {
    request,
    memoryLimit: configuredMemoryLimit(options),
    batchRows: options.batchRows ?? DEFAULT_BATCH_ROWS,
    dryRun: options.dryRun === true,
    stop: run.opening.stop.signal,
    pace: () => runPaceOf(run.client),
  };
}

/** What a decided run fetches, into `sinks`. */
function fetchPlan(
  decision: RunDecision,
  sinks: ReadonlyMap<ExtractedName, RecordSink>,
  done: ReadonlyMap<ExtractedName, ReadonlySet<string>>,
  options: RunExtractOptions,
): FetchPlan {
  return {
    resources: decision.resources,
    mode: decision.mode,
    cursors: decision.cursors,
    resuming: decision.resumeId !== undefined,
    pageSize: decision.pageSize,
    sinks,
    done,
    confirmGone: decision.mode === "full" && options.dryRun !== true,
  };
}

/** A run the database decides: its storage is made ready, then it fetches. */
async function extractInTurn(run: ExtractRunContext): Promise<ExtractResult> {
  const { options, client, controller, keyCheck } = run;
  const store = await run.opening.store;
  const ready = await prepareStorage(store, storageSettings(run), keyCheck);
  const { decision } = ready;
  const progress = new Progress(decision.resources);
  progress.watchPace(() => client.pace());
  if (decision.resumeId !== undefined) {
    // What the interrupted attempts staged shows from the start, not "0 rec".
    const sizes = await store.withDatabase("read", (connection) =>
      tableSizes(connection, store.side, decision.resources, true),
    );
    for (const [resource, size] of sizes) progress.received(resource, size.staged);
  }
  const plan = fetchPlan(decision, ready.sinks, ready.done, options);
  const storage = Promise.resolve(ready);
  const fetched = await fetchRun(plan, { storage, client, controller, progress }, options);
  return storeRun(ready, { ...plan, runId: ready.runId }, fetched, client, options);
}

/**
 * A run decided in advance (see pending-sink.ts): it fetches once the key is accepted and the
 * side file is its own (no other extract of the database runs), while the rest of its storage is
 * made ready. Whichever fails first is the error reported: a failure to make the storage ready
 * stops the fetching, and a fetch that fails stops the storage's waiting for a lock.
 */
async function extractAhead(run: ExtractRunContext, advance: RunDecision): Promise<ExtractResult> {
  const { options, client, controller, keyCheck } = run;
  const storage = run.opening.store.then((store) =>
    prepareStorage(store, storageSettings(run), keyCheck, advance),
  );
  const sinks = new Map<ExtractedName, RecordSink>();
  for (const resource of advance.resources) {
    sinks.set(resource, new PendingSink(storage.then((ready) => sinkOf(ready, resource))));
  }
  const progress = new Progress(advance.resources);
  progress.watchPace(() => client.pace());
  const plan = fetchPlan(advance, sinks, new Map(), options);
  const fetching = Promise.all([keyCheck.result, run.opening.sideHeld]).then(() =>
    fetchRun(plan, { storage, client, controller, progress }, options),
  );
  stopStartOnFailure(run, fetching);
  let ready: RunStorage;
  try {
    ready = await storage;
  } catch (error) {
    const stoppedFirst = stoppedBy(run.opening.stop.signal, error);
    controller.abort(error);
    // Closing the store under a statement still running crashes the process: let all settle.
    const fetchError = await fetching.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    // The storage was stopped because the fetching had failed first: that failure is the news.
    if (stoppedFirst && fetchError !== undefined) throw fetchError;
    throw error;
  }
  const fetched = await fetching;
  return storeRun(ready, { ...plan, runId: ready.runId }, fetched, client, options);
}

/**
 * Once the fetching has failed (a refused key; a portal error, which aborts the run's controller),
 * the waits to start the run end: it cannot succeed, and nobody should wait out a lock to learn
 * it. The stop reaches only the waits before the run is written down (see open-store.ts).
 */
function stopStartOnFailure(run: ExtractRunContext, fetching: Promise<FetchOutcome>): void {
  const stop = (reason: unknown) => run.opening.stop.abort(reason);
  const { signal } = run.controller;
  signal.addEventListener("abort", () => stop(signal.reason), { once: true });
  fetching.catch(stop);
}

/** Whether `error` is the stop of `signal`: its reason, or a wait's error caused by it. */
function stoppedBy(signal: AbortSignal, error: unknown): boolean {
  if (!signal.aborted) return false;
  return error === signal.reason || (error instanceof Error && error.cause === signal.reason);
}

function sinkOf(ready: RunStorage, resource: ExtractedName): RecordSink {
  const sink = ready.sinks.get(resource);
  if (!sink) throw new Error(`no sink opened for ${resource}`);
  return sink;
}

/** The fetched run merged into the database (unless a dry run), and what it did. */
async function storeRun(
  ready: RunStorage,
  plan: ExtractPlan,
  fetched: FetchOutcome,
  client: LmsClient,
  options: RunExtractOptions,
): Promise<ExtractResult> {
  const pace = ready.journal.now();
  const settings = {
    allowEmpty: options.allowEmpty === true,
    memoryLimit: configuredMemoryLimit(options),
    logger: options.logger,
  };
  // Nothing more is asked of the portal: its connections close while the merge runs, not after
  // it (about 20 ms at 192 connections, at the end of a run a few seconds long).
  const closing = client.close().catch(() => undefined);
  let merged: MergedRun = { tables: {}, pace: undefined };
  try {
    if (!options.dryRun) merged = await mergeRun(ready.store, plan, fetched, pace, settings);
  } finally {
    await closing;
  }
  return {
    runId: ready.runId,
    mode: plan.mode,
    since: earliestCursor(plan.cursors),
    resources: fetched.resources,
    tables: merged.tables,
    requests: fetched.client.requests,
    retries: fetched.client.retries,
    // A dry run records no end in `_runs`: its pace is its one attempt's.
    pace: merged.pace ?? pace.pace,
  };
}
