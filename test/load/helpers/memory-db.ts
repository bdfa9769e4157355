/** A connection to a fresh in-memory database per call; every database is closed after the test. */
import type { DuckDBConnection } from "@duckdb/node-api";
import { afterEach } from "vitest";
import { type LmsDatabase, openDatabase } from "../../../src/load/database.js";

const open: LmsDatabase[] = [];

afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

export async function memory(): Promise<DuckDBConnection> {
  const db = await openDatabase(":memory:");
  open.push(db);
  return db.connect();
}
