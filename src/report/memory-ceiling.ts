/**
 * A report run's DuckDB memory ceiling, sized to the data when none is configured: the 256 MB
 * that serves most portals fails compliance on one of 400,000 people with an out-of-memory error
 * (src/load/memory-limit.ts has the measurements). Counting the per-person tables costs a few
 * milliseconds; DuckDB keeps row counts, and a lake's Parquet files have them in their footers.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { DEFAULT_MEMORY_LIMIT, reportMemoryLimit } from "../load/memory-limit.js";
import type { Logger } from "../log/logger.js";
import type { ReportSource } from "./report-source.js";

/** The tables compliance and the other reports hold per person while they join and sort. */
const PER_PERSON_TABLES = ["user", "user_grp", "product_access"] as const;

/**
 * The largest per-person table there is and its rows (over several portals: all of theirs); of
 * tables as large, the first by name, so the line naming it is the same from run to run.
 */
async function largestPerPersonTable(
  connection: DuckDBConnection,
): Promise<{ table: string; rows: number }> {
  const reader = await connection.runAndReadAll(
    `SELECT table_name FROM information_schema.tables
     WHERE table_catalog = current_database() AND table_schema = current_schema()
       AND table_name IN (${PER_PERSON_TABLES.map((t) => `'${t}'`).join(", ")})
     ORDER BY table_name`,
  );
  let largest = { table: "", rows: 0 };
  for (const [name] of reader.getRowsJS()) {
    const table = String(name);
    const count = await connection.runAndReadAll(`SELECT count(*) FROM ${quoteIdent(table)}`);
    const rows = Number(count.getRowsJS()[0]?.[0] ?? 0);
    if (rows > largest.rows) largest = { table, rows };
  }
  return largest;
}

/**
 * Raises the ceiling of `db`'s instance when the data needs more than the default and the user
 * set none; a ceiling the user set is theirs to keep. Call it before the configuration is locked
 * (src/load/file-access.ts), as DuckDB then refuses every SET.
 */
export async function fitMemoryCeiling(db: ReportSource, logger: Logger): Promise<void> {
  if (db.memoryLimit !== undefined) return;
  const connection = await db.connect();
  try {
    const { table, rows } = await largestPerPersonTable(connection);
    const ceiling = reportMemoryLimit(rows);
    if (ceiling === DEFAULT_MEMORY_LIMIT) return;
    await connection.run(`SET memory_limit = '${ceiling}'`);
    // The rows are one table's (people, memberships or access records), not any person's.
    logger.info(
      `DuckDB's memory ceiling is ${ceiling} for the ${rows.toLocaleString("en-US")} rows of table ${table} (LMS_DUCKDB_MEMORY_LIMIT sets it)`,
      { memoryLimit: ceiling, rows, table },
    );
  } finally {
    connection.closeSync();
  }
}
