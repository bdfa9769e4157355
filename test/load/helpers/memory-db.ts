/** A connection to a fresh in-memory database per call; every database is closed after the test. */
import type { DuckDBConnection } from "@duckdb/node-api";
import { afterEach } from "vitest";
import { type LmsDatabase, openDatabase } from "../../../src/load/database.js";
import { sideTablesSql } from "../../../src/load/side-file.js";

const open: LmsDatabase[] = [];

afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

/** With the side file's tables in the same database (see withSideTables). */
export async function memory(): Promise<DuckDBConnection> {
  const db = await openDatabase(":memory:");
  open.push(db);
  return (await withSideTables(await db.connect())).connection;
}

/**
 * A database that is its own side file: the staging, checkpoint and run-record tables are created
 * in it, and `side` (its catalog name) is what merge and size functions are given.
 */
export async function withSideTables(
  connection: DuckDBConnection,
): Promise<{ connection: DuckDBConnection; side: string }> {
  for (const sql of sideTablesSql()) await connection.run(sql);
  const reader = await connection.runAndReadAll("SELECT current_database()");
  return { connection, side: String(reader.getRows()[0]?.[0]) };
}
