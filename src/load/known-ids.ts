/**
 * Fan-out ids that are already stored: in the parents' resource tables (a run that does not
 * extract the parent, or an incremental run that must still visit every known user), and in the
 * staging tables of a run being resumed (pages staged before the interruption).
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

/** On a connection to the side file. */
export function idsInStaging(connection: DuckDBConnection, source: IdSource): Promise<number[]> {
  return idsIn(connection, stagingTable(source.parent), source);
}
