/**
 * Deciding what an extract run is, before anything is written: a resumed attempt of the
 * interrupted run, or a new run with its resources and incremental cursors. Writing the decision
 * down (`applyRun`) comes only after the portal accepted the key, so a wrong key or URL never
 * discards an interrupted run's work.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { DEFAULT_LOOKBACK_MS, DEFAULT_PAGE_SIZE } from "../config/defaults.js";
import type { ExtractStore } from "../load/extract-store.js";
import { adoptLegacyStaging } from "../load/legacy-staging.js";
import { recordRunPace } from "../load/run-pace.js";
import { currentProcess } from "../load/run-process.js";
import {
  abandonRunningRuns,
  lastLoadedByResource,
  reopenRun,
  resumableRun,
  startRun,
} from "../load/runs.js";
import { clearSide } from "../load/side-file.js";
import { type StoredSnapshot, snapshotStoredKeys } from "../load/stored-keys.js";
import type { Logger } from "../log/logger.js";
import { type ExtractedName, RESOURCES } from "../resources/registry.js";
import { selectResources, storedReads } from "./plan.js";
import { checkSamePortal } from "./same-portal.js";

export { DEFAULT_LOOKBACK_MS };

export interface RunRequest {
  readonly mode: "full" | "incremental";
  /** Explicit cursor for every resource (`--since`); implies incremental. */
  readonly since?: Date;
  readonly lookbackMs?: number;
  readonly resume?: boolean;
  readonly only?: readonly string[];
  readonly pageSize?: number;
  /** Recorded in `_runs.options` (never secrets). */
  readonly runOptions?: Readonly<Record<string, unknown>>;
  /** A full run replacing another address's records says nothing (see same-portal.ts). */
  readonly portalChangeExpected?: boolean;
  readonly logger: Logger;
  /**
   * When the run began, before any request: recorded as a new run's `started_at`, from which the
   * next incremental run reads. A run that fetches before it is written down (pending-sink.ts)
   * would otherwise record a later time than its first listing and let an edit made in between
   * slip past both runs.
   */
  readonly startedAt: Date;
}

/** The portal's answer to the key, asked for while the run is decided. */
export interface PendingKeyCheck {
  readonly result: Promise<void>;
  /** Whether `result` has settled (a promise's state cannot be read synchronously). */
  readonly settled: () => boolean;
}

export interface RunDecision {
  /** The run being resumed, or undefined for a new run. */
  readonly resumeId: number | undefined;
  readonly mode: "full" | "incremental";
  readonly cursors: ReadonlyMap<ExtractedName, Date>;
  readonly resources: ExtractedName[];
  /** A resumed run's own (the pages it skips are named by their starts), else the request's. */
  readonly pageSize: number;
}

interface StoredOptions {
  resources?: string[];
  pageSize?: number;
  cursors?: Record<string, string>;
  /** The run's --since: on a database that never loaded a resource, it sets no cursor. */
  since?: string;
}

/** The earliest incremental cursor of a run (recorded as `_runs.since`), or null for a full run. */
export function earliestCursor(cursors: ReadonlyMap<ExtractedName, Date>): Date | null {
  let earliest: Date | null = null;
  for (const date of cursors.values()) if (earliest === null || date < earliest) earliest = date;
  return earliest;
}

/**
 * The flags of a `--resume` request that ask for something else than the run it resumes: they are
 * not followed. One that asks for what the run does already is not named (an `--all-portals`
 * batch resumed gives each portal's run the batch's own flags back).
 */
function ignoredOnResume(
  request: RunRequest,
  mode: "full" | "incremental",
  stored: StoredOptions,
): string[] {
  const resources = stored.resources ?? [];
  const asked = request.only === undefined ? [] : selectResources(request.only);
  const sameResources =
    asked.length === resources.length && asked.every((name) => resources.includes(name));
  const cursors = Object.values(stored.cursors ?? {});
  const since = request.since?.getTime();
  const sameSince =
    stored.since !== undefined
      ? Date.parse(stored.since) === since
      : cursors.length > 0 && cursors.every((iso) => Date.parse(iso) === since);
  return [
    request.only && !sameResources ? "--only" : "",
    request.since && !sameSince ? "--since" : "",
    // --since asks for an incremental run by itself: named once, as the flag the user gave.
    request.mode === "incremental" && request.since === undefined && mode !== "incremental"
      ? "--incremental"
      : "",
  ].filter(Boolean);
}

/**
 * Reads only: what the run will be. Bad input (an unknown --only resource) fails here. On a
 * connection to the database; `side` names the side file (what an interrupted run left).
 */
export async function decideRun(
  connection: DuckDBConnection,
  side: string,
  request: RunRequest,
): Promise<RunDecision> {
  const resources = selectResources(request.only);
  const previous = await resumableRun(connection, side);
  if (request.resume && previous) {
    const stored = previous.options as StoredOptions;
    const ignored = ignoredOnResume(request, previous.mode, stored);
    if (ignored.length > 0) {
      // A resumed run must finish what it started, with the same resources and cursors.
      request.logger.warn(
        `--resume continues run ${previous.runId} with its own settings; ${ignored.join(", ")} ignored`,
        { runId: previous.runId },
      );
    }
    const cursors = new Map<ExtractedName, Date>();
    for (const [name, iso] of Object.entries(stored.cursors ?? {})) {
      cursors.set(name as ExtractedName, new Date(iso));
    }
    return {
      resumeId: previous.runId,
      mode: previous.mode,
      cursors,
      resources: selectResources(stored.resources),
      // A run recorded without one used the client's default.
      pageSize: stored.pageSize ?? DEFAULT_PAGE_SIZE,
    };
  }
  if (request.resume) {
    // Nothing was staged before the interruption: a new run does exactly what resuming would.
    request.logger.info("nothing to resume in this database: starting a new run");
  }
  const cursors = new Map<ExtractedName, Date>();
  if (request.since) {
    // A resource never loaded is listed whole, as with --incremental: its table has nothing the
    // cursor could add to, and the takes of the people it would name would be left out.
    const loaded = await lastLoadedByResource(connection);
    for (const name of resources) if (loaded.has(name)) cursors.set(name, request.since);
    const whole = resources.filter((name) => !loaded.has(name));
    if (whole.length > 0 && cursors.size > 0) {
      request.logger.info("--since: resources never loaded before are listed whole", {
        resources: whole,
      });
    }
  } else if (request.mode === "incremental") {
    const loaded = await lastLoadedByResource(connection);
    const lookback = request.lookbackMs ?? DEFAULT_LOOKBACK_MS;
    for (const name of resources) {
      const last = loaded.get(name);
      if (last && RESOURCES[name].updatedField) {
        cursors.set(name, new Date(last.getTime() - lookback));
      }
    }
  }
  const incremental = request.since !== undefined || request.mode === "incremental";
  if (incremental && cursors.size === 0) {
    request.logger.info("no earlier successful run to continue from: doing a full extract");
  }
  return newRun(request, resources, cursors);
}

/** A new run of `resources`: incremental where it has cursors, else full. */
function newRun(
  request: RunRequest,
  resources: ExtractedName[],
  cursors: ReadonlyMap<ExtractedName, Date>,
): RunDecision {
  return {
    resumeId: undefined,
    mode: cursors.size > 0 ? "incremental" : "full",
    cursors,
    resources,
    pageSize: request.pageSize ?? DEFAULT_PAGE_SIZE,
  };
}

/**
 * The decision when the request alone makes it: a full run that resumes nothing is a new run of
 * the selected resources whatever the database holds (`decideRun` reads only to resume or to
 * find cursors). Undefined when the database has a say.
 */
export function decidedInAdvance(request: RunRequest): RunDecision | undefined {
  if (request.resume || request.since !== undefined || request.mode !== "full") return undefined;
  return newRun(request, selectResources(request.only), new Map());
}

/**
 * Writes the decision on `connection`, a connection to the database (inside
 * `store.withDatabase`): reopens the resumed run, or empties the side file and starts a new run in
 * the database's `_runs`.
 */
export async function applyRun(
  store: ExtractStore,
  connection: DuckDBConnection,
  decision: RunDecision,
  request: RunRequest,
): Promise<number> {
  const { resumeId } = decision;
  if (resumeId !== undefined) {
    await reopenRun(connection, resumeId, currentProcess());
    request.logger.info(`resuming run ${resumeId}`, { runId: resumeId });
    return resumeId;
  }
  // A run left to resume (an attempt killed, say) keeps the pace its attempts saved; a side file
  // this store created holds none (most runs: a merged run deletes it), and the start is spared a
  // statement.
  if (!store.freshSide) await recordRunPace(connection, store.side);
  await store.withSide(clearSide);
  await abandonRunningRuns(
    connection,
    "stopped without recording an outcome; superseded by a later run",
  );
  return startRun(connection, {
    startedAt: request.startedAt,
    mode: decision.mode,
    since: earliestCursor(decision.cursors),
    options: {
      ...request.runOptions,
      // So that a reader can tell this run from one whose process was killed (run-process.ts).
      process: currentProcess(),
      resources: decision.resources,
      pageSize: decision.pageSize,
      ...(request.since === undefined ? {} : { since: request.since.toISOString() }),
      cursors: Object.fromEntries(
        [...decision.cursors].map(([name, date]) => [name, date.toISOString()]),
      ),
    },
  });
}

/** A run written down, with what it reads back from the database while it fetches. */
export interface StartedRun {
  readonly decision: RunDecision;
  readonly runId: number;
  readonly stored: StoredSnapshot;
}

/**
 * Writes the decision down (applyRun) and, in the same attachment of the database, reads what the
 * run will need from it while it fetches (src/load/stored-keys.ts), so that it is not attached
 * again before the merge.
 */
async function startAndSnapshot(
  store: ExtractStore,
  connection: DuckDBConnection,
  decision: RunDecision,
  request: RunRequest,
): Promise<StartedRun> {
  const runId = await applyRun(store, connection, decision, request);
  const { lists, sources } = storedReads(decision.resources, decision.mode);
  const stored = await snapshotStoredKeys(connection, store.side, lists, sources);
  return { decision, runId, stored };
}

/**
 * Decides the run and writes it down once the key is accepted. When the key check has answered
 * by the time the run is decided (the usual case: the side file takes longer to open than the
 * portal to answer), both happen in one attachment of the database, which saves attaching it
 * again (10-20 ms). Otherwise the database is let go while the portal answers, so readers are not
 * kept out for as long as a slow portal takes. A run `decided` in advance (`decidedInAdvance`) is
 * written down as it is.
 */
export async function decideAndStartRun(
  store: ExtractStore,
  request: RunRequest,
  keyCheck: PendingKeyCheck,
  decided?: RunDecision,
  stop?: AbortSignal,
): Promise<StartedRun> {
  // `stop`: the run failed before it was written down (its fetch, or its key): a wait for the
  // database ends there, and nothing is written. Without a wait the run is written as before
  // and its failure recorded on it.
  const waits = stop ? { stop } : {};
  const started = await store.withDatabase(
    "write",
    async (connection) => {
      await adoptLegacyStaging(connection, store.side);
      const decision = decided ?? (await decideRun(connection, store.side, request));
      await checkSamePortal(connection, decision, request);
      if (!keyCheck.settled()) return { decision, run: undefined };
      await keyCheck.result;
      return { decision, run: await startAndSnapshot(store, connection, decision, request) };
    },
    waits,
  );
  if (started.run !== undefined) return started.run;
  const { decision } = started;
  await keyCheck.result;
  return store.withDatabase(
    "write",
    (connection) => startAndSnapshot(store, connection, decision, request),
    waits,
  );
}
