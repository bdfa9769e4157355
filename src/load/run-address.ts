/**
 * The portal address a run was made against, as its `_runs.options` recorded it (`baseUrl`):
 * what tells one portal's records from another's in a database.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { sameAddress } from "../config/same-address.js";

/** Where `_runs.options` keeps the address. */
const ADDRESS = "json_extract_string(options, '$.baseUrl')";

/** The address `runId` recorded, or undefined when it recorded none (a program's own run). */
export async function runAddress(
  connection: DuckDBConnection,
  runId: number,
): Promise<string | undefined> {
  const reader = await connection.runAndReadAll(
    `SELECT ${ADDRESS} FROM _runs WHERE run_id = $run::BIGINT`,
    { run: runId },
  );
  const value = reader.getRows()[0]?.[0];
  return typeof value === "string" ? value : undefined;
}

/** Whether any extract run of the database succeeded (with an address recorded or not). */
export async function holdsAnExtract(connection: DuckDBConnection): Promise<boolean> {
  const reader = await connection.runAndReadAll(
    "SELECT EXISTS (SELECT 1 FROM _runs WHERE status = 'succeeded')",
  );
  return reader.getRows()[0]?.[0] === true;
}

/** The last succeeded run that recorded an address: its id and the address. */
async function lastLoadedAddress(
  connection: DuckDBConnection,
): Promise<{ runId: number; address: string } | undefined> {
  const reader = await connection.runAndReadAll(
    `SELECT run_id, ${ADDRESS} AS address FROM _runs
     WHERE status = 'succeeded' AND address IS NOT NULL ORDER BY run_id DESC LIMIT 1`,
  );
  const row = reader.getRows()[0];
  return row === undefined ? undefined : { runId: Number(row[0]), address: String(row[1]) };
}

/**
 * The last succeeded run that recorded an address, when that address is not `address` (the
 * host's case and a trailing slash aside): the database holds another portal's records.
 */
export async function loadedFromElsewhere(
  connection: DuckDBConnection,
  address: string,
): Promise<{ runId: number; address: string } | undefined> {
  const last = await lastLoadedAddress(connection);
  return last === undefined || sameAddress(last.address, address) ? undefined : last;
}

/**
 * Every address the runs of the database recorded; with `exceptDemo`, leaving out the runs the
 * demo made (marked `"demo": true` in their options by `demo`).
 */
export async function recordedAddresses(
  connection: DuckDBConnection,
  options: { exceptDemo?: boolean } = {},
): Promise<string[]> {
  const notDemo =
    options.exceptDemo === true
      ? " AND json_extract_string(options, '$.demo') IS DISTINCT FROM 'true'"
      : "";
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT ${ADDRESS} AS url FROM _runs WHERE url IS NOT NULL${notDemo}`,
  );
  return reader.getRowObjects().map((row) => String(row.url));
}

/**
 * Whether the database's rows came from the address run `runId` recorded: the last succeeded run
 * recorded the same one, or no run recorded any. A run replacing another portal's records must
 * not keep any of them as "later" (merge.ts keepNewer): they are another portal's.
 */
export async function holdsRecordsOf(
  connection: DuckDBConnection,
  runId: number,
): Promise<boolean> {
  const address = await runAddress(connection, runId);
  if (address === undefined) return (await lastLoadedAddress(connection)) === undefined;
  return (await loadedFromElsewhere(connection, address)) === undefined;
}
