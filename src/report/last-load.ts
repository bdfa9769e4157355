/**
 * The most recent successful extract recorded in `_runs`, for the "About" sheet: which run the
 * data comes from and when it was loaded.
 */
import type { DuckDBConnection } from "@duckdb/node-api";

/** The last successful run, or nulls when none is recorded (or there is no `_runs` table). */
export interface LastLoad {
  runId: number | null;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** Reads the last successful run on `connection`; never throws for a missing `_runs`. */
export async function lastLoad(connection: DuckDBConnection): Promise<LastLoad> {
  const none: LastLoad = { runId: null, startedAt: null, finishedAt: null };
  const exists = await connection.runAndReadAll(
    "SELECT count(*) FROM duckdb_tables() WHERE table_name = '_runs'",
  );
  if (Number(exists.getRowsJS()[0]?.[0] ?? 0) === 0) return none;
  const reader = await connection.runAndReadAll(
    "SELECT run_id, started_at, finished_at FROM _runs WHERE status = 'succeeded' ORDER BY run_id DESC LIMIT 1",
  );
  const row = reader.getRowsJS()[0];
  if (!row) return none;
  const date = (value: unknown) => (value instanceof Date ? value : null);
  return { runId: Number(row[0]), startedAt: date(row[1]), finishedAt: date(row[2]) };
}
