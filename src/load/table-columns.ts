/**
 * The columns a table has, read from DuckDB's catalog: in the connection's current database and
 * schema only, since another database attached to the instance (an extract's side file) can hold
 * a table of the same name.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteLiteral } from "./ddl.js";

const IN_CURRENT_SCHEMA =
  "database_name = current_database() AND schema_name = current_schema() ORDER BY table_name, column_index";

/** Column names of `table`, in table order; empty when there is no such table. */
export async function tableColumns(connection: DuckDBConnection, table: string): Promise<string[]> {
  const reader = await connection.runAndReadAll(
    `SELECT column_name FROM duckdb_columns() WHERE table_name = $1 AND ${IN_CURRENT_SCHEMA}`,
    [table],
  );
  return reader.getRows().map((row) => String(row[0]));
}

/** The same names as a set, for checks of which columns a table lacks. */
export async function existingColumns(
  connection: DuckDBConnection,
  table: string,
): Promise<Set<string>> {
  return new Set(await tableColumns(connection, table));
}

/**
 * The column names of every table in the current database and schema, in one read of the
 * catalog. Why one: each read of `duckdb_columns()` scans the whole catalog, so a read per table
 * cost 3-5 ms each (the first over 20 ms) at every extract's start, for tables checked in a row.
 */
export async function columnsByTable(
  connection: DuckDBConnection,
): Promise<Map<string, Set<string>>> {
  const reader = await connection.runAndReadAll(
    `SELECT table_name, column_name FROM duckdb_columns() WHERE ${IN_CURRENT_SCHEMA}`,
  );
  const tables = new Map<string, Set<string>>();
  for (const [table, column] of reader.getRows()) {
    const name = String(table);
    const columns = tables.get(name) ?? new Set<string>();
    columns.add(String(column));
    tables.set(name, columns);
  }
  return tables;
}

/**
 * Column names of `table`, which must exist, in table order, looked up by name the way a query
 * names it (the connection's current database first). Why not `tableColumns`: a lookup of one
 * table takes about 1 ms, where `duckdb_columns()` scans the whole catalog (10-20 ms the first
 * time on an instance), which every staging writer of a run would do at once at its start.
 */
export async function columnsOfTable(
  connection: DuckDBConnection,
  table: string,
): Promise<string[]> {
  const reader = await connection.runAndReadAll(
    `SELECT name FROM pragma_table_info(${quoteLiteral(table)}) ORDER BY cid`,
  );
  return reader.getRows().map((row) => String(row[0]));
}
