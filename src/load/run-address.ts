/**
 * The portal address a run was made against, as its `_runs.options` recorded it (`baseUrl`):
 * what tells one portal's records from another's in a database.
 */
import type { DuckDBConnection } from "@duckdb/node-api";

/** The address `runId` recorded, or undefined when it recorded none (a program's own run). */
export async function runAddress(
  connection: DuckDBConnection,
  runId: number,
): Promise<string | undefined> {
  const reader = await connection.runAndReadAll(
    "SELECT json_extract_string(options, '$.baseUrl') FROM _runs WHERE run_id = $run::BIGINT",
    { run: runId },
  );
  const value = reader.getRows()[0]?.[0];
  return typeof value === "string" ? value : undefined;
}

/** The last succeeded run that recorded an address: its id and the address. */
export async function lastLoadedAddress(
  connection: DuckDBConnection,
): Promise<{ runId: number; address: string } | undefined> {
  const reader = await connection.runAndReadAll(
    `SELECT run_id, json_extract_string(options, '$.baseUrl') AS address FROM _runs
     WHERE status = 'succeeded' AND address IS NOT NULL ORDER BY run_id DESC LIMIT 1`,
  );
  const row = reader.getRows()[0];
  return row === undefined ? undefined : { runId: Number(row[0]), address: String(row[1]) };
}
