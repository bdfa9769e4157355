/**
 * Fills the published tables of a database with generated rows of every column type, for the
 * publish benchmark and tests: the values are derived from the row number, so any reader can
 * recompute what a row must hold.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { describePublishedTables } from "../publish/published-tables.js";

/** The SQL expression of a column of `type` for row `i` (every third value NULL but keys). */
function valueSql(type: string, column: string, nullable: boolean): string {
  // `_runs.status`: every run succeeded, as a database is published only after a successful one.
  if (column === "status") return "'succeeded'";
  const base = (() => {
    if (type === "BIGINT" || type === "INTEGER") return "i";
    if (type === "DOUBLE") return "i / 4";
    if (type === "TIMESTAMP") return "TIMESTAMP '2026-01-01' + to_seconds(i)";
    if (type === "VARCHAR[]") return "['a' || i, 'b']";
    if (type === "JSON") return `json_object('n', i, 'column', '${column}')`;
    return `'${column}-' || i`;
  })();
  return !nullable ? base : `CASE WHEN i % 3 = 2 THEN NULL ELSE ${base} END`;
}

/** Appends `rows[table]` generated rows to each named table (ids continue after `offset`). */
export async function fillSyntheticRows(
  connection: DuckDBConnection,
  rows: Readonly<Record<string, number>>,
  offset = 0,
): Promise<void> {
  const reader = await connection.runAndReadAll(
    "SELECT table_name || '.' || column_name FROM duckdb_columns() WHERE is_nullable",
  );
  const nullable = new Set(reader.getRowsJS().map((row) => String(row[0])));
  for (const table of await describePublishedTables(connection)) {
    const count = rows[table.name];
    if (!count) continue;
    const values = table.columns.map((c, index) =>
      valueSql(c.type, c.name, index > 0 && nullable.has(`${table.name}.${c.name}`)),
    );
    await connection.run(
      `INSERT INTO ${quoteIdent(table.name)} SELECT ${values.join(", ")}
       FROM (SELECT range + ${offset} AS i FROM range(${count}))`,
    );
  }
}
