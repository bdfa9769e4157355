/**
 * `_roster_columns`: the `user` column each roster header went into, kept across imports (replace
 * and merge alike) so that the next file's header goes into the same one (src/roster/column-names.ts).
 * Made by the first import that records into it, so a database without a roster has no such table.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { tableExists } from "../load/table-columns.js";
import {
  type HeaderSlot,
  NO_RECORDED_COLUMNS,
  type RecordedColumns,
  slotKey,
} from "./column-names.js";

const TABLE = "_roster_columns";

const CREATE_SQL = `CREATE TABLE IF NOT EXISTS ${TABLE} (
  header_name VARCHAR NOT NULL,
  occurrence INTEGER NOT NULL,
  column_name VARCHAR NOT NULL,
  PRIMARY KEY (header_name, occurrence)
)`;

/** One header's column: `header_name` is the name the header asks for (see HeaderSlot). */
export interface ColumnRecord extends HeaderSlot {
  readonly column: string;
}

/** The columns earlier imports recorded; none for a database that has no record yet. */
export async function readRecordedColumns(connection: DuckDBConnection): Promise<RecordedColumns> {
  if (!(await tableExists(connection, TABLE))) return NO_RECORDED_COLUMNS;
  const reader = await connection.runAndReadAll(
    `SELECT header_name, occurrence, column_name FROM ${TABLE}`,
  );
  const byHeader = new Map<string, string>();
  for (const [asked, occurrence, column] of reader.getRows()) {
    byHeader.set(slotKey({ asked: String(asked), occurrence: Number(occurrence) }), String(column));
  }
  return { byHeader, columns: new Set(byHeader.values()) };
}

/**
 * Records `columns` within the caller's transaction; a header recorded before keeps its first
 * column (which the plan reused anyway), so the record only grows.
 */
export async function recordColumns(
  connection: DuckDBConnection,
  columns: readonly ColumnRecord[],
): Promise<void> {
  await connection.run(CREATE_SQL);
  for (const { asked, occurrence, column } of columns) {
    await connection.run(
      `INSERT INTO ${TABLE} VALUES ($asked, $occurrence, $column) ON CONFLICT DO NOTHING`,
      { asked, occurrence, column },
    );
  }
}
