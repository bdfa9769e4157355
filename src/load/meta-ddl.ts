/**
 * Bookkeeping tables beside the resource tables. Names start with `_` so they never collide with
 * a resource.
 *
 * - `_runs`: one row per extract run (options never hold secrets), with the pace it ran at
 *   (RUN_PACE_COLUMNS).
 * - `_run_resources`: per run and resource: records, requests, retries, rejects, not-found ids,
 *   duration.
 * - `_rejects`: records that could not be coerced to the registry's types, kept raw with the reason.
 * - `_schema_drift`: fields the portal sent that the registry does not know (values are kept in
 *   each table's `_extra` column).
 * - `_not_found`: ids a fan-out lookup asked for and the portal did not know.
 * - `_change_sets`: one row per change set `apply` started (file sha256 + operation), written
 *   before its first request, so a later run knows a create may have reached the portal.
 * - `_changes`: the outcome of every row of every `apply`: applied, unchanged, failed or skipped,
 *   with the record before and the record the portal answered.
 */

/**
 * Columns of `_runs` added after its first version: the lowest, highest and last limit on
 * requests in flight, and the answers in which the portal said it was too busy (429, 503). A new
 * file's `_runs` has them from the start, last, where an older file gains them when opened (null
 * for the runs recorded before them): adding them to every new file cost about 20 ms.
 */
export const RUN_PACE_COLUMNS: ReadonlyMap<string, string> = new Map([
  ["concurrency_min", "INTEGER"],
  ["concurrency_max", "INTEGER"],
  ["concurrency_final", "INTEGER"],
  ["overload_answers", "BIGINT"],
]);

/**
 * Columns `_changes` gained after databases were written with it (migrate.ts adds them):
 * `answered`, whether `after` is the record the portal answered (a row sent, or a link the
 * portal already had), as opposed to the database's own copy (a row found unchanged, nothing
 * sent). A full merge keeps only a record the portal answered (merge.ts); rows written before
 * the column have no value, and count by their outcome `applied` alone.
 */
export const CHANGES_COLUMNS: ReadonlyMap<string, string> = new Map([["answered", "BOOLEAN"]]);

/**
 * The tables a run writes while it fetches: kept in the side file during the run (see
 * side-file.ts) and copied into the database with the run's outcome.
 */
export const RUN_RECORD_TABLES = ["_rejects", "_schema_drift", "_not_found"] as const;

export const RUN_RECORD_TABLES_SQL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS _rejects (
  run_id BIGINT NOT NULL,
  resource VARCHAR NOT NULL,
  raw JSON NOT NULL,
  reason VARCHAR NOT NULL
)`,
  `CREATE TABLE IF NOT EXISTS _schema_drift (
  run_id BIGINT NOT NULL,
  resource VARCHAR NOT NULL,
  field VARCHAR NOT NULL,
  example JSON
)`,
  `CREATE TABLE IF NOT EXISTS _not_found (
  run_id BIGINT NOT NULL,
  resource VARCHAR NOT NULL,
  id VARCHAR NOT NULL
)`,
];

export const META_TABLES_SQL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS _runs (
  run_id BIGINT PRIMARY KEY,
  started_at TIMESTAMP NOT NULL,
  finished_at TIMESTAMP,
  status VARCHAR NOT NULL,
  mode VARCHAR NOT NULL,
  since TIMESTAMP,
  options JSON,
  error VARCHAR,
${[...RUN_PACE_COLUMNS].map(([name, type]) => `  ${name} ${type}`).join(",\n")}
)`,
  `CREATE TABLE IF NOT EXISTS _run_resources (
  run_id BIGINT NOT NULL,
  resource VARCHAR NOT NULL,
  records BIGINT NOT NULL,
  requests BIGINT NOT NULL,
  retries BIGINT NOT NULL,
  rejects BIGINT NOT NULL,
  not_found BIGINT NOT NULL,
  duration_ms BIGINT NOT NULL,
  PRIMARY KEY (run_id, resource)
)`,
  ...RUN_RECORD_TABLES_SQL,
  `CREATE TABLE IF NOT EXISTS _change_sets (
  change_set_id VARCHAR PRIMARY KEY,
  file VARCHAR NOT NULL,
  op VARCHAR NOT NULL,
  rows BIGINT NOT NULL,
  started_at TIMESTAMP NOT NULL
)`,
  `CREATE TABLE IF NOT EXISTS _changes (
  change_set_id VARCHAR NOT NULL,
  file VARCHAR NOT NULL,
  line BIGINT NOT NULL,
  op VARCHAR NOT NULL,
  record_id BIGINT,
  "before" JSON,
  "after" JSON,
  outcome VARCHAR NOT NULL,
  error VARCHAR,
  "time" TIMESTAMP NOT NULL,
  answered BOOLEAN
)`,
];

/** Run statuses written to `_runs.status`. */
export type RunStatus = "running" | "succeeded" | "failed" | "interrupted";
