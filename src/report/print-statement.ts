/**
 * The statement `sql --format csv` runs for the one the user gave: a SELECT over it that writes
 * each TIMESTAMPTZ column in UTC, as report CSVs do (export/utc-timestamp-sql.ts), so that the
 * same statement prints the same bytes on a machine in New York and one in Paris. The statement
 * runs as given when it has no such column, and when it cannot be read as a sub-query (a PRAGMA,
 * a CALL): then its TIMESTAMPTZ values are in the machine's zone, with their offset.
 */
import { type DuckDBConnection, DuckDBTypeId } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { utcTimestampSql } from "./export/utc-timestamp-sql.js";
import { prepareStatement } from "./prepare-statement.js";
import { statementText } from "./statement-text.js";

/** What to run, and the types of the columns as `query` itself gives them. */
export interface PrintStatement {
  readonly sql: string;
  /** The query's own column types: a wrapped column is text, but no text cell to neutralise. */
  readonly types: readonly DuckDBTypeId[] | undefined;
}

/** `query`, or a SELECT over it writing its TIMESTAMPTZ columns in UTC. */
export async function csvStatement(
  connection: DuckDBConnection,
  query: string,
): Promise<PrintStatement> {
  const prepared = await prepareStatement(connection, query);
  const columns = Array.from({ length: prepared.columnCount }, (_, i) => ({
    name: prepared.columnName(i),
    type: prepared.columnTypeId(i),
  }));
  prepared.destroySync();
  if (!columns.some((c) => c.type === DuckDBTypeId.TIMESTAMP_TZ)) {
    return { sql: query, types: undefined };
  }
  // Columns are taken by position: a statement may give two the same name.
  const inner = columns.map((_, i) => quoteIdent(`c${i}`));
  const list = columns.map((column, i) => {
    const value = `q.${inner[i]}`;
    const text = column.type === DuckDBTypeId.TIMESTAMP_TZ ? utcTimestampSql(value) : value;
    return `${text} AS ${quoteIdent(column.name)}`;
  });
  // The statement stays on the first line, so DuckDB's line numbers in its errors remain right.
  const sql = `SELECT ${list.join(", ")} FROM (${statementText(query)}\n) AS q(${inner.join(", ")})`;
  try {
    (await prepareStatement(connection, sql)).destroySync();
  } catch {
    // Not a query a SELECT can read from: printed as DuckDB gives it.
    return { sql: query, types: undefined };
  }
  return { sql, types: columns.map((c) => c.type) };
}
