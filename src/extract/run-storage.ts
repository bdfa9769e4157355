/**
 * A run's storage made ready: the run decided and written down in the database (once the key is
 * accepted), then a staging sink per resource opened in the side file and, for a resumed run,
 * what its earlier attempts finished.
 */
import { randomUUID } from "node:crypto";
import type { DuckDBConnection } from "@duckdb/node-api";
import { doneKeys } from "../load/checkpoint.js";
import type { ExtractStore } from "../load/extract-store.js";
import { extractMemoryLimit } from "../load/memory-limit.js";
import type { RunPace } from "../load/pace-journal.js";
import { PaceJournal } from "../load/pace-journal.js";
import type { StoredSnapshot } from "../load/stored-keys.js";
import { discardUnfinished } from "../load/unfinished-listings.js";
import type { ExtractedName } from "../resources/registry.js";
import { extractionOf } from "./plan.js";
import {
  decideAndStartRun,
  type PendingKeyCheck,
  type RunDecision,
  type RunRequest,
} from "./prepare-run.js";
import { fetchFailure } from "./run-outcome.js";
import { CountingSink, type RecordSink, StagingSink } from "./sink.js";

/** What a written-down run stores into. */
export interface RunStorage {
  readonly store: ExtractStore;
  readonly runId: number;
  readonly decision: RunDecision;
  /** A connection to the side file of the run's own, for the not-found ids. */
  readonly connection: DuckDBConnection;
  readonly sinks: ReadonlyMap<ExtractedName, RecordSink>;
  /** Work finished by an earlier attempt of this run (resume), per resource. */
  readonly done: ReadonlyMap<ExtractedName, ReadonlySet<string>>;
  /** What the database held as the run began, read back while it fetches. */
  readonly stored: StoredSnapshot;
  /** This attempt's pace, saved in the side file as it goes. */
  readonly journal: PaceJournal;
}

/** How the run's storage is prepared. */
export interface StorageSettings {
  readonly request: RunRequest;
  /** The DuckDB memory ceiling configured, if any. */
  readonly memoryLimit: string | undefined;
  readonly batchRows: number;
  /** Counting sinks only: the benchmark's fetch-and-parse floor. */
  readonly dryRun: boolean;
  /** Ends the waits to write the run down: the run failed first (see open-store.ts). */
  readonly stop?: AbortSignal;
  /** The pace of the run's client so far. */
  readonly pace: () => RunPace;
}

/**
 * Decides the run (or takes the decision made in advance), writes it down once the key is
 * accepted, and opens its sinks.
 */
export async function prepareStorage(
  store: ExtractStore,
  settings: StorageSettings,
  keyCheck: PendingKeyCheck,
  decided?: RunDecision,
): Promise<RunStorage> {
  // The instance may be shared with reports that follow (`run`): its ceiling is lowered for the
  // extract only (see memory-limit.ts).
  await store.setMemoryLimit(extractMemoryLimit(settings.memoryLimit));
  const { request, stop } = settings;
  const started = await decideAndStartRun(store, request, keyCheck, decided, stop);
  const { decision, runId, stored } = started;
  const sinks = new Map<ExtractedName, RecordSink>();
  const journal = new PaceJournal(randomUUID(), settings.pace);
  try {
    const connection = await store.connect();
    await openSinks(sinks, store, { runId, journal }, decision, settings);
    const done = new Map<ExtractedName, ReadonlySet<string>>();
    if (decision.resumeId !== undefined) {
      for (const resource of decision.resources) {
        const kind = extractionOf(resource).checkpoint;
        done.set(resource, await doneKeys(connection, runId, resource, kind));
        await discardUnfinished(connection, runId, resource);
      }
    }
    return { store, runId, decision, connection, sinks, done, stored, journal };
  } catch (error) {
    // The run is written down by now: it ends as failed, with the reason, not left "running",
    // and its sinks stop their commit timers and close their connections.
    await Promise.all([...sinks.values()].map((sink) => sink.abandon()));
    throw await fetchFailure({ store, runId, pace: undefined }, error, false);
  }
}

/**
 * Opens into `sinks` the run's staging sink per resource (counting ones for a dry run); on a
 * failure, those that opened are there for the caller to abandon.
 */
async function openSinks(
  sinks: Map<ExtractedName, RecordSink>,
  store: ExtractStore,
  attempt: { runId: number; journal: PaceJournal },
  decision: RunDecision,
  settings: StorageSettings,
): Promise<void> {
  const { runId, journal } = attempt;
  // Each sink has its own connection, so they open side by side: one after the other, their
  // few statements each held up the first request by a tenth of a second. All of them settle
  // before a failure is reported: the store is closed next, and closing DuckDB under a
  // statement still running on a worker thread crashes the process.
  const opened = await Promise.allSettled(
    decision.resources.map(async (resource) => {
      if (settings.dryRun) {
        sinks.set(resource, new CountingSink());
        return;
      }
      const connection = await store.connect();
      // A new run has just emptied the side file (applyRun); one created by this run has the
      // registry's tables. Then the writers open without asking DuckDB anything.
      const shape = { fresh: store.freshSide, empty: decision.resumeId === undefined };
      const { batchRows } = settings;
      sinks.set(
        resource,
        await StagingSink.open({ connection, runId, resource, batchRows, shape, journal }),
      );
    }),
  );
  const failed = opened.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failed) throw failed.reason;
}
