/** Reads rows from a DuckDB file read-only, closing it at once so another process may open it. */
import { DuckDBInstance } from "@duckdb/node-api";

export async function readRows(path: string, sql: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(path, { access_mode: "READ_ONLY" });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRows();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
