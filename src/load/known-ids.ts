/**
 * Fan-out ids that are already stored: in the parents' resource tables (a run that does not
 * extract the parent, or an incremental run that must still visit every known user) with the
 * parents' records that could not be typed, and in the side file of a run being resumed (pages
 * staged before the interruption, and that run's records that could not be typed). A record kept
 * in `_rejects` names its children as a typed one does, and a run that lists the parent fetches
 * them; one that reads the parent from storage must too.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { ExtractedName } from "../resources/registry.js";
import type { IdSource as RegistryIdSource } from "../resources/types.js";
import { quoteIdent } from "./ddl.js";
import { stagingTable } from "./staging.js";

/** Where a fan-out's ids come from: a field of a parent resource, optionally filtered. */
export interface IdSource extends RegistryIdSource {
  readonly parent: ExtractedName;
}

/** Distinct ids a source yields from `table` (a resource table or its staging table). */
async function idsIn(
  connection: DuckDBConnection,
  table: string,
  source: IdSource,
): Promise<number[]> {
  const where = source.when ? ` AND ${quoteIdent(source.when.field)} = $when` : "";
  const params: Record<string, string> = source.when ? { when: source.when.equals } : {};
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT ${quoteIdent(source.field)}::BIGINT AS id FROM ${quoteIdent(table)} WHERE ${quoteIdent(source.field)} IS NOT NULL${where}`,
    params,
  );
  return reader.getRows().map((row) => Number(row[0]));
}

/**
 * Distinct ids a source yields from the records of its parent kept raw in `_rejects` by the runs
 * `runs` selects (a condition on `run_id`, with its parameters), read as idFrom
 * (src/extract/plan.ts) reads a record: a whole number, or a string of digits, no larger than
 * JavaScript holds exactly. A run that lists the parent pushes these ids as each page arrives; one
 * that reads the parent from storage instead would otherwise miss them, and with them every take
 * of a user named only by records that could not be typed.
 */
async function idsInRejects(
  connection: DuckDBConnection,
  source: IdSource,
  runs: { readonly sql: string; readonly params: Record<string, number> },
): Promise<number[]> {
  const when = source.when ? " AND json_extract(raw, $whenPath) = to_json($when::VARCHAR)" : "";
  const params: Record<string, string | number> = {
    ...runs.params,
    path: `$.${source.field}`,
    resource: source.parent,
    ...(source.when ? { whenPath: `$.${source.when.field}`, when: source.when.equals } : {}),
  };
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT TRY_CAST(text AS BIGINT) AS id FROM (
       SELECT json_extract_string(raw, $path) AS text FROM _rejects
       WHERE ${runs.sql} AND resource = $resource${when}
     ) WHERE regexp_full_match(text, '[0-9]+') AND id <= ${Number.MAX_SAFE_INTEGER}`,
    params,
  );
  return reader.getRows().map((row) => Number(row[0]));
}

/**
 * The succeeded runs whose rejected records of a parent still stand: its latest full run and the
 * runs after it (an incremental run adds to what the full one left; the next full run replaces
 * it). Its rejected records stand beside its table's rows as the parent's current records.
 */
const STANDING_RUNS = `run_id IN (SELECT run_id FROM _runs WHERE status = 'succeeded' AND run_id >= coalesce((
  SELECT max(u.run_id) FROM _runs u JOIN _run_resources r ON r.run_id = u.run_id
  WHERE u.status = 'succeeded' AND u.mode = 'full' AND r.resource = $resource), 0))`;

/** On a connection to the database: the parent's table and its standing rejected records. */
export async function idsInTable(
  connection: DuckDBConnection,
  source: IdSource,
): Promise<number[]> {
  const stored = await idsIn(connection, source.parent, source);
  const rejected = await idsInRejects(connection, source, { sql: STANDING_RUNS, params: {} });
  return [...stored, ...rejected];
}

/** On a connection to the side file: the run's staged rows and its rejected records. */
export async function idsInStaging(
  connection: DuckDBConnection,
  source: IdSource,
  runId: number,
): Promise<number[]> {
  const staged = await idsIn(connection, stagingTable(source.parent), source);
  const run = { sql: "run_id = $run::BIGINT", params: { run: runId } };
  return [...staged, ...(await idsInRejects(connection, source, run))];
}
