/**
 * The run ledger: `_runs`, `_run_resources`, `_rejects`, `_schema_drift`, `_not_found`
 * (meta-ddl.ts). Every value goes in as a bound parameter.
 */
import {
  type DuckDBConnection,
  DuckDBTimestampValue,
  LIST,
  listValue,
  VARCHAR,
} from "@duckdb/node-api";
import { withoutLoneSurrogates } from "../encode/lone-surrogates.js";
import type { Reject } from "../encode/to-record-batch.js";
import type { ExtractedName } from "../resources/registry.js";
import { EXTRACTED, RESOURCES } from "../resources/registry.js";
import { RUN_RECORD_TABLES, type RunStatus } from "./meta-ddl.js";
import type { RunProcess } from "./run-process.js";
import { inSide } from "./side-file.js";
import { CHECKPOINT_TABLE, stagingTable } from "./staging.js";

export type RunMode = "full" | "incremental";

/** What a run was asked to do. `options` is stored as JSON; secrets must never be in it. */
export interface RunInfo {
  mode: RunMode;
  since: Date | null;
  options: Record<string, unknown>;
  /**
   * When the run began, before its first request (now if not given). The next incremental run
   * reads from here (less a lookback), so it must not be later than anything the run fetched.
   */
  startedAt?: Date;
}

/** Per-resource outcome of a run. */
export interface ResourceStats {
  records: number;
  requests: number;
  retries: number;
  rejects: number;
  notFound: number;
  durationMs: number;
}

/** An interrupted or failed run that left staged rows or checkpoints behind. */
export interface ResumableRun {
  runId: number;
  mode: RunMode;
  since: Date | null;
  options: Record<string, unknown>;
}

/** Option names that would hold a secret; dropped as a last line of defence. */
const SECRET_OPTION = /^(api[-_]?key|token|access[-_]?token|password|secret|authorization)$/i;
const MAX_ERROR_LENGTH = 4000;

function timestamp(date: Date): DuckDBTimestampValue {
  return new DuckDBTimestampValue(BigInt(date.getTime()) * 1000n);
}

function toDate(value: unknown): Date | null {
  return value instanceof DuckDBTimestampValue ? new Date(Number(value.micros / 1000n)) : null;
}

/**
 * JSON text of any value, never throwing (bigints as strings, cycles as their String()), half a
 * surrogate pair as U+FFFD: DuckDB's JSON refuses its escape, and one record's would fail the run.
 */
export function safeJson(value: unknown): string {
  try {
    return withoutLoneSurrogates(
      JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ??
        "null",
    );
  } catch {
    return withoutLoneSurrogates(JSON.stringify(String(value)));
  }
}

/** Starts a run (status "running") and answers its id, one above the largest so far. */
export async function startRun(connection: DuckDBConnection, info: RunInfo): Promise<number> {
  const options = Object.fromEntries(
    Object.entries(info.options).filter(([key]) => !SECRET_OPTION.test(key)),
  );
  const reader = await connection.runAndReadAll(
    `INSERT INTO _runs (run_id, started_at, status, mode, since, options)
     SELECT coalesce(max(run_id), 0) + 1, $started::TIMESTAMP, 'running', $mode, $since::TIMESTAMP, $options::JSON
     FROM _runs
     RETURNING run_id`,
    {
      started: timestamp(info.startedAt ?? new Date()),
      mode: info.mode,
      since: info.since ? timestamp(info.since) : null,
      options: safeJson(options),
    },
  );
  return Number(reader.getRows()[0]?.[0]);
}

/** Ends a run with `status` (and an error message for failures). */
export async function finishRun(
  connection: DuckDBConnection,
  runId: number,
  status: RunStatus,
  error?: string,
): Promise<void> {
  await connection.run(
    "UPDATE _runs SET status = $status, finished_at = $finished::TIMESTAMP, error = $error WHERE run_id = $run::BIGINT",
    {
      status,
      finished: timestamp(new Date()),
      error: error === undefined ? null : error.slice(0, MAX_ERROR_LENGTH),
      run: runId,
    },
  );
}

/**
 * Closes out runs still marked running (their process died without recording an outcome), so the
 * run history never shows a run as in progress when none is.
 */
export async function abandonRunningRuns(
  connection: DuckDBConnection,
  reason: string,
): Promise<void> {
  await connection.run(
    "UPDATE _runs SET status = 'failed', finished_at = $finished::TIMESTAMP, error = $error WHERE status = 'running'",
    { finished: timestamp(new Date()), error: reason.slice(0, MAX_ERROR_LENGTH) },
  );
}

/** Marks a run being resumed as running again. */
export async function reopenRun(
  connection: DuckDBConnection,
  runId: number,
  process?: RunProcess,
): Promise<void> {
  // The resuming process is the run's now (see run-process.ts).
  await connection.run(
    `UPDATE _runs SET status = 'running', finished_at = NULL, error = NULL,
       options = json_merge_patch(coalesce(options, '{}'), json_object('process', $process::JSON))
     WHERE run_id = $run::BIGINT`,
    { run: runId, process: JSON.stringify(process ?? null) },
  );
}

/**
 * Stores (or, for a resumed run, replaces) the outcome of each resource, in one statement: the end
 * of a run is on its critical path, and a statement per resource cost a few milliseconds each.
 */
export async function recordResourceStats(
  connection: DuckDBConnection,
  runId: number,
  outcomes: ReadonlyMap<ExtractedName, ResourceStats>,
): Promise<void> {
  if (outcomes.size === 0) return;
  const rows: string[] = [];
  const values: (string | number)[] = [runId];
  for (const [resource, stats] of outcomes) {
    const at = values.length;
    const p = (offset: number, cast = "::BIGINT") => `$${at + offset}${cast}`;
    rows.push(`($1::BIGINT, ${p(1, "")}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)})`);
    values.push(
      resource,
      stats.records,
      stats.requests,
      stats.retries,
      stats.rejects,
      stats.notFound,
      Math.round(stats.durationMs),
    );
  }
  await connection.run(`INSERT OR REPLACE INTO _run_resources VALUES ${rows.join(", ")}`, values);
}

/** Stores rejected records, raw (as JSON) with their reasons. */
export async function recordRejects(
  connection: DuckDBConnection,
  runId: number,
  resource: ExtractedName,
  rejects: readonly Reject[],
): Promise<void> {
  if (rejects.length === 0) return;
  const appender = await connection.createAppender("_rejects");
  try {
    for (const reject of rejects) {
      appender.appendBigInt(BigInt(runId));
      appender.appendVarchar(resource);
      appender.appendVarchar(safeJson(reject.raw));
      appender.appendVarchar(reject.reason);
      appender.endRow();
    }
  } finally {
    appender.closeSync();
  }
}

/** Stores fields the registry does not know, once per run, resource and field. */
export async function recordDrift(
  connection: DuckDBConnection,
  runId: number,
  resource: ExtractedName,
  drift: ReadonlyMap<string, unknown>,
): Promise<void> {
  for (const [field, example] of drift) {
    await connection.run(
      `INSERT INTO _schema_drift
       SELECT $run::BIGINT, $resource, $field, $example::JSON
       WHERE NOT EXISTS (SELECT 1 FROM _schema_drift
                         WHERE run_id = $run::BIGINT AND resource = $resource AND field = $field)`,
      { run: runId, resource, field, example: safeJson(example) },
    );
  }
}

/** Stores ids a lookup did not find, once per run, resource and id. */
export async function recordNotFound(
  connection: DuckDBConnection,
  runId: number,
  resource: ExtractedName,
  ids: readonly (string | number)[],
): Promise<void> {
  if (ids.length === 0) return;
  await connection.run(
    `INSERT INTO _not_found
     SELECT $run::BIGINT, $resource, n.id
     FROM (SELECT DISTINCT unnest($ids) AS id) n
     WHERE NOT EXISTS (SELECT 1 FROM _not_found f
                       WHERE f.run_id = $run::BIGINT AND f.resource = $resource AND f.id = n.id)`,
    { run: runId, resource, ids: listValue(ids.map(String)) },
    { ids: LIST(VARCHAR) },
  );
}

/** Per resource, what a run recorded in the side file: its rejects and its not-found ids. */
export interface RunRecordCounts {
  readonly rejects: ReadonlyMap<string, number>;
  readonly notFound: ReadonlyMap<string, number>;
}

/**
 * What tells one rejected record from another in `_rejects`: its primary key, as the portal sent
 * it, or its whole text when that has no key. The text alone counted a record twice when it
 * changed between two readings of one run (an interrupted attempt and its resumption, or two
 * pages of a list that moved), though it is one record the run could not type.
 */
function rejectedRecordSql(): string {
  const keys = EXTRACTED.map(
    (name) => `WHEN '${name}' THEN json_extract_string(raw, '$.${RESOURCES[name].primaryKey}')`,
  );
  return `coalesce('key ' || CASE resource ${keys.join(" ")} END, 'raw ' || raw)`;
}

/**
 * What a run holds in the side file's `_rejects` and `_not_found` (`side` names the side file),
 * as copyRunRecords copies it into the database: those of a resumed run's interrupted attempts
 * count too, and a record read again (a list not finished is listed again on resume) is one
 * reject. One question for both: each costs the merge's transaction a round trip.
 */
export async function runRecordCounts(
  connection: DuckDBConnection,
  side: string,
  runId: number,
): Promise<RunRecordCounts> {
  const reader = await connection.runAndReadAll(
    `SELECT 'rejects', resource, count(DISTINCT ${rejectedRecordSql()}) FROM ${inSide(side, "_rejects")} WHERE run_id = $run::BIGINT GROUP BY resource
     UNION ALL
     SELECT 'notFound', resource, count(DISTINCT id) FROM ${inSide(side, "_not_found")} WHERE run_id = $run::BIGINT GROUP BY resource`,
    { run: runId },
  );
  const counts = { rejects: new Map<string, number>(), notFound: new Map<string, number>() };
  for (const [kind, resource, n] of reader.getRows()) {
    counts[kind === "rejects" ? "rejects" : "notFound"].set(String(resource), Number(n));
  }
  return counts;
}

/**
 * Per resource, the start of the latest successful run that loaded it: the cursor of the next
 * incremental run for that resource (a run limited with --only moves only its own resources').
 *
 * A `--since` run that listed a resource from its own day does not count for it: it read the
 * changes after that day, not those after the last run, so a `--since` of this morning (or a
 * mistyped year) would make the next incremental run skip everything changed in between, for
 * good. Only a run that listed the resource whole, or from the cursor of the runs before it, does.
 * A `--since` run is told by the `since` of its options (the flag's day); `_runs.since` is every
 * incremental run's earliest cursor, and an incremental run moves the cursor as a full one does.
 */
export async function lastLoadedByResource(
  connection: DuckDBConnection,
): Promise<Map<string, Date>> {
  const reader = await connection.runAndReadAll(
    `SELECT r.resource, max(u.started_at) FROM _runs u JOIN _run_resources r USING (run_id)
     WHERE u.status = 'succeeded'
       AND (json_extract_string(u.options, '$.since') IS NULL
            OR json_extract_string(u.options, '$.cursors.' || r.resource) IS NULL)
     GROUP BY r.resource`,
  );
  const found = new Map<string, Date>();
  for (const row of reader.getRows()) {
    const date = toDate(row[1]);
    if (date) found.set(String(row[0]), date);
  }
  return found;
}

/** Whether the side file holds staged rows, or checkpoints of `runId`. */
async function hasLeftovers(
  connection: DuckDBConnection,
  side: string,
  runId: number,
): Promise<boolean> {
  const staged = EXTRACTED.map(
    (name) => `EXISTS (SELECT 1 FROM ${inSide(side, stagingTable(name))})`,
  ).join(" OR ");
  const reader = await connection.runAndReadAll(
    `SELECT EXISTS (SELECT 1 FROM ${inSide(side, CHECKPOINT_TABLE)} WHERE run_id = $run::BIGINT) OR ${staged}`,
    { run: runId },
  );
  return reader.getRows()[0]?.[0] === true;
}

/**
 * The latest run, if it did not succeed and left staged rows or checkpoints in the side file to
 * continue from; null otherwise (including when a later run succeeded, or the side file's rows
 * belong to a run whose merge committed before the side file could be emptied).
 */
export async function resumableRun(
  connection: DuckDBConnection,
  side: string,
): Promise<ResumableRun | null> {
  const reader = await connection.runAndReadAll(
    "SELECT run_id, status, mode, since, options FROM _runs ORDER BY run_id DESC LIMIT 1",
  );
  const row = reader.getRows()[0];
  if (!row || row[1] === "succeeded") return null;
  const runId = Number(row[0]);
  if (!(await hasLeftovers(connection, side, runId))) return null;
  const parsed: unknown = typeof row[4] === "string" ? JSON.parse(row[4]) : {};
  const options =
    typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? Object.fromEntries(Object.entries(parsed))
      : {};
  return {
    runId,
    mode: row[2] === "incremental" ? "incremental" : "full",
    since: toDate(row[3]),
    options,
  };
}

/**
 * Copies what a run recorded in the side file while fetching (rejects, schema drift, not-found
 * ids) into the database. A table's rows of the run are replaced when the side file has some, so
 * an outcome recorded twice (a failed attempt, then the resumed one) is not counted twice; and
 * each row goes in once, so a record rejected again when read again is held once.
 */
export async function copyRunRecords(
  connection: DuckDBConnection,
  side: string,
  runId: number,
): Promise<void> {
  const params = { run: runId };
  // One question for the three tables: most runs record in one or none of them, and each
  // statement costs the merge's transaction a round trip.
  const found = await connection.runAndReadAll(
    RUN_RECORD_TABLES.map(
      (table) =>
        `SELECT '${table}' WHERE EXISTS (SELECT 1 FROM ${inSide(side, table)} WHERE run_id = $run::BIGINT)`,
    ).join(" UNION ALL "),
    params,
  );
  const recorded = new Set(found.getRows().map(([table]) => String(table)));
  for (const table of RUN_RECORD_TABLES) {
    if (!recorded.has(table)) continue;
    const from = inSide(side, table);
    await connection.run(`DELETE FROM ${table} WHERE run_id = $run::BIGINT`, params);
    await connection.run(
      `INSERT INTO ${table} SELECT DISTINCT * FROM ${from} WHERE run_id = $run::BIGINT`,
      params,
    );
  }
}
