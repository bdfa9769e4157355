/**
 * Fan-out ids that are already stored: in the parents' resource tables (a run that does not
 * extract the parent, or an incremental run that must still visit every known user), and in the
 * side file of a run being resumed (pages staged before the interruption, and the records of
 * those pages that could not be typed, which name their children as the typed ones do).
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

/** On a connection to the database. */
export function idsInTable(connection: DuckDBConnection, source: IdSource): Promise<number[]> {
  return idsIn(connection, source.parent, source);
}

/**
 * Distinct ids a source yields from the records of its parent that the run kept raw in the side
 * file's `_rejects`, read as idFrom (src/extract/plan.ts) reads a record: a whole number, or a
 * string of digits, no larger than JavaScript holds exactly. A run without a break pushes these
 * ids as the page arrives; a resumed one that skipped the finished list would otherwise miss
 * them, and with them every take of a user named only by such records.
 */
async function idsInRejects(
  connection: DuckDBConnection,
  source: IdSource,
  runId: number,
): Promise<number[]> {
  const when = source.when ? " AND json_extract(raw, $whenPath) = to_json($when::VARCHAR)" : "";
  const params: Record<string, string | number> = {
    path: `$.${source.field}`,
    run: runId,
    resource: source.parent,
    ...(source.when ? { whenPath: `$.${source.when.field}`, when: source.when.equals } : {}),
  };
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT TRY_CAST(text AS BIGINT) AS id FROM (
       SELECT json_extract_string(raw, $path) AS text FROM _rejects
       WHERE run_id = $run::BIGINT AND resource = $resource${when}
     ) WHERE regexp_full_match(text, '[0-9]+') AND id <= ${Number.MAX_SAFE_INTEGER}`,
    params,
  );
  return reader.getRows().map((row) => Number(row[0]));
}

/** On a connection to the side file: the run's staged rows and its rejected records. */
export async function idsInStaging(
  connection: DuckDBConnection,
  source: IdSource,
  runId: number,
): Promise<number[]> {
  const staged = await idsIn(connection, stagingTable(source.parent), source);
  return [...staged, ...(await idsInRejects(connection, source, runId))];
}
