/**
 * What `publish` copies out of a database: the extracted resource tables, the roster and the run
 * log, with their columns as the database has them now (the roster may carry extra columns).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { USER_TABLE } from "../load/user-table.js";
import { EXTRACTED } from "../resources/registry.js";

/**
 * The published tables. `_run_resources` goes with `_runs` so the shipped `freshness` query runs
 * on a published copy too.
 */
export const PUBLISHED_TABLES: readonly string[] = [
  ...EXTRACTED,
  USER_TABLE,
  "_runs",
  "_run_resources",
];

/** A column as DuckDB types it (e.g. `BIGINT`, `TIMESTAMP`, `VARCHAR[]`, `JSON`). */
export interface PublishedColumn {
  readonly name: string;
  readonly type: string;
}

export interface PublishedTable {
  readonly name: string;
  readonly columns: readonly PublishedColumn[];
}

/** The published tables present in the database, with their columns in table order. */
export async function describePublishedTables(
  connection: DuckDBConnection,
): Promise<PublishedTable[]> {
  const reader = await connection.runAndReadAll(
    `SELECT table_name, column_name, data_type FROM duckdb_columns()
     WHERE schema_name = current_schema() AND database_name = current_database()
     ORDER BY table_name, column_index`,
  );
  const byTable = new Map<string, PublishedColumn[]>();
  for (const [table, name, type] of reader.getRowsJS()) {
    const columns = byTable.get(String(table)) ?? [];
    columns.push({ name: String(name), type: String(type) });
    byTable.set(String(table), columns);
  }
  return PUBLISHED_TABLES.flatMap((name) => {
    const columns = byTable.get(name);
    return columns ? [{ name, columns }] : [];
  });
}

/**
 * `table` as the lake stores it: JSON columns become VARCHAR, because Parquet's JSON annotation
 * on a byte array is read as binary by several engines (Polars among them) while text is read as
 * text everywhere.
 */
export function asLakeTable(table: PublishedTable): PublishedTable {
  const columns = table.columns.map((c) => (c.type === "JSON" ? { ...c, type: "VARCHAR" } : c));
  return { name: table.name, columns };
}

/** `SELECT` of every column of `table`, in order, each cast to the column's type here. */
export function selectAllSql(table: PublishedTable): string {
  const columns = table.columns
    .map((c) => `CAST(${quoteIdent(c.name)} AS ${c.type}) AS ${quoteIdent(c.name)}`)
    .join(", ");
  return `SELECT ${columns} FROM ${quoteIdent(table.name)}`;
}
