/**
 * Fan-out ids that are already in the database: from the parents' resource tables (a run that does
 * not extract the parent, or an incremental run that must still visit every known user), and from
 * the staging tables of a run being resumed (pages staged before the interruption).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { stagingTable } from "../load/staging.js";
import type { IdSource } from "./plan.js";

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

export function idsInTable(connection: DuckDBConnection, source: IdSource): Promise<number[]> {
  return idsIn(connection, source.parent, source);
}

export function idsInStaging(connection: DuckDBConnection, source: IdSource): Promise<number[]> {
  return idsIn(connection, stagingTable(source.parent), source);
}
