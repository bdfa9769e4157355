/**
 * The extract pipeline's entry point: prepares the run (new, or an interrupted one resumed), opens
 * a staging sink per resource, fetches everything, then merges in one transaction.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { ClientOptions } from "../api/client.js";
import { CliError } from "../cli-error.js";
import { type CheckpointKind, doneKeys } from "../load/checkpoint.js";
import type { LmsDatabase } from "../load/database.js";
import { clearStaging, mergeStaging } from "../load/merge.js";
import {
  abandonRunningRuns,
  finishRun,
  lastSuccessfulRun,
  recordNotFound,
  recordResourceStats,
  reopenRun,
  resumableRun,
  startRun,
} from "../load/runs.js";
import type { Logger } from "../log/logger.js";
import { EXTRACTED, type ExtractedName } from "../resources/registry.js";
import { describeFailure } from "./describe-failure.js";
import { selectResources } from "./plan.js";
import { Progress } from "./progress.js";
import {
  type ExtractPlan,
  type FetchOutcome,
  fetchAll,
  type ResourceOutcome,
} from "./run-extract.js";
import { CountingSink, type RecordSink, StagingSink } from "./sink.js";

/** One hour: covers clock skew between this machine and the portal, and writes that landed while the previous run was paging. */
export const DEFAULT_LOOKBACK_MS = 3_600_000;

/**
 * Rows gathered per Arrow batch. Each batch ends in an appender flush, which is a DuckDB commit
 * (a write-ahead-log sync) on the main thread: 32k take-sized rows keep those to a few per
 * second while holding only some tens of MB.
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
  readonly since: Date | null;
  readonly resources: ReadonlyMap<ExtractedName, ResourceOutcome>;
  /** Rows in each merged table after the run. */
  readonly tables: Readonly<Partial<Record<ExtractedName, number>>>;
  readonly requests: number;
  readonly retries: number;
}

const KIND: Readonly<Record<ExtractedName, CheckpointKind>> = {
  grp: "page",
  user_grp: "page",
  product_access: "page",
  svc_availability: "page",
  take: "parent",
  availability_group: "lookup",
  product: "lookup",
};

interface PreparedRun {
  runId: number;
  mode: "full" | "incremental";
  since: Date | null;
  resources: ExtractedName[];
  pageSize: number | undefined;
  resuming: boolean;
}

async function prepareRun(
  connection: DuckDBConnection,
  options: RunExtractOptions,
): Promise<PreparedRun> {
  const previous = await resumableRun(connection);
  if (options.resume && previous) {
    const stored = previous.options as { resources?: string[]; pageSize?: number };
    await reopenRun(connection, previous.runId);
    options.logger.info(`resuming run ${previous.runId}`, { runId: previous.runId });
    return {
      runId: previous.runId,
      mode: previous.mode,
      since: previous.since,
      resources: selectResources(stored.resources),
      pageSize: stored.pageSize,
      resuming: true,
    };
  }
  if (options.resume) {
    // Nothing was staged before the interruption: a new run does exactly what resuming would.
    options.logger.info("nothing to resume in this database: starting a new run");
  }
  await abandonRunningRuns(
    connection,
    "stopped without recording an outcome; superseded by a later run",
  );
  await clearStaging(connection, EXTRACTED);
  const resources = selectResources(options.only);
  let mode = options.since ? "incremental" : options.mode;
  let since: Date | null = options.since ?? null;
  if (mode === "incremental" && !since) {
    const last = await lastSuccessfulRun(connection);
    if (last) {
      since = new Date(last.startedAt.getTime() - (options.lookbackMs ?? DEFAULT_LOOKBACK_MS));
    } else {
      options.logger.info("no earlier successful run to continue from: doing a full extract");
      mode = "full";
    }
  }
  const pageSize = options.clientOptions.pageSize;
  const runId = await startRun(connection, {
    mode,
    since,
    options: { ...options.runOptions, resources, pageSize },
  });
  return { runId, mode, since, resources, pageSize, resuming: false };
}

/** Runs an extract; throws CliError (with the run marked failed or interrupted) when it cannot finish. */
export async function runExtract(options: RunExtractOptions): Promise<ExtractResult> {
  const connection = await options.db.connect();
  const sinkConnections: DuckDBConnection[] = [];
  try {
    const run = await prepareRun(connection, options);
    const progress = new Progress(run.resources);
    const sinks = new Map<ExtractedName, RecordSink>();
    const done = new Map<ExtractedName, ReadonlySet<string>>();
    for (const resource of run.resources) {
      if (options.dryRun) {
        sinks.set(resource, new CountingSink());
      } else {
        const sinkConnection = await options.db.connect();
        sinkConnections.push(sinkConnection);
        sinks.set(
          resource,
          await StagingSink.open({
            connection: sinkConnection,
            runId: run.runId,
            resource,
            batchRows: options.batchRows ?? DEFAULT_BATCH_ROWS,
          }),
        );
      }
      if (run.resuming)
        done.set(resource, await doneKeys(connection, run.runId, resource, KIND[resource]));
    }
    const plan: ExtractPlan = { ...run, sinks, done };
    // Not-found ids are written as they come, in order, on the run's own connection.
    let notFoundWrites = Promise.resolve();
    const display = options.showProgress?.(progress);
    let fetched: FetchOutcome;
    try {
      fetched = await fetchAll(plan, {
        connection,
        clientOptions: { ...options.clientOptions, pageSize: run.pageSize },
        logger: options.logger,
        progress,
        signal: options.signal,
        onNotFound: (resource, id) => {
          notFoundWrites = notFoundWrites.then(() =>
            recordNotFound(connection, run.runId, resource, [id]),
          );
          return notFoundWrites;
        },
      });
      await notFoundWrites;
    } catch (error) {
      display?.stop();
      await notFoundWrites.catch(() => {});
      const interrupted = options.signal?.aborted === true;
      const failure = describeFailure(error, interrupted);
      await finishRun(
        connection,
        run.runId,
        interrupted ? "interrupted" : "failed",
        failure.message,
      );
      throw new CliError(
        `${failure.message}; the database is unchanged (\`lms-export extract --resume\` continues from here)`,
        failure.exitCode,
        { cause: error },
      );
    }
    display?.stop();
    const retries = retriesByResource(fetched);
    let tables: Partial<Record<ExtractedName, number>> = {};
    if (!options.dryRun) {
      for (const [resource, outcome] of fetched.resources) {
        await recordResourceStats(connection, run.runId, resource, {
          records: outcome.records,
          requests: outcome.requests,
          retries: retries.get(resource) ?? 0,
          rejects: outcome.rejects,
          notFound: outcome.notFound,
          durationMs: outcome.durationMs,
        });
      }
      const mergeStarted = Date.now();
      tables = await mergeStaging(connection, run.resources, run.mode, {
        beforeCommit: (tx) => finishRun(tx, run.runId, "succeeded"),
      });
      options.logger.info("merged the staged records into the tables", {
        runId: run.runId,
        seconds: (Date.now() - mergeStarted) / 1000,
      });
    }
    return {
      runId: run.runId,
      mode: run.mode,
      since: run.since,
      resources: fetched.resources,
      tables,
      requests: fetched.client.requests,
      retries: fetched.client.retries,
    };
  } finally {
    for (const sinkConnection of sinkConnections) sinkConnection.closeSync();
    connection.closeSync();
  }
}

/** The client operation each extracted resource is fetched with (the names in its stats). */
const OPERATION: Readonly<Record<ExtractedName, string>> = {
  grp: "listGroups",
  user_grp: "listUserGroups",
  product_access: "listProductAccess",
  svc_availability: "listAvailabilities",
  take: "listTakesForUser",
  availability_group: "getAvailabilityGroup",
  product: "getProduct",
};

/** Client retries attributed to resources through the operation that made them. */
function retriesByResource(fetched: FetchOutcome): Map<ExtractedName, number> {
  const found = new Map<ExtractedName, number>();
  for (const resource of fetched.resources.keys()) {
    found.set(resource, fetched.client.byOperation[OPERATION[resource]]?.retries ?? 0);
  }
  return found;
}
