/**
 * An in-memory DuckDB whose tables are views over other data (a lake's files, several portals'
 * databases), for running reports on: `setup` creates the views once, then runReports connects
 * as it would to a database file.
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { memoryLimit } from "../load/memory-limit.js";

export interface ViewDatabase {
  connect(): Promise<DuckDBConnection>;
  /** Closes every connection made and the instance. */
  close(): void;
}

/** `configuredMemory` is the `duckdbMemoryLimit` setting, if any. */
export async function openViewDatabase(
  setup: (connection: DuckDBConnection) => Promise<void>,
  configuredMemory?: string,
): Promise<ViewDatabase> {
  const memory_limit = memoryLimit(configuredMemory);
  const instance = await DuckDBInstance.create(":memory:", { memory_limit });
  const connections: DuckDBConnection[] = [];
  try {
    const connection = await instance.connect();
    try {
      await setup(connection);
    } finally {
      connection.closeSync();
    }
  } catch (error) {
    instance.closeSync();
    throw error;
  }
  return {
    async connect() {
      const connection = await instance.connect();
      connections.push(connection);
      return connection;
    },
    close() {
      for (const connection of connections.splice(0)) connection.closeSync();
      instance.closeSync();
    },
  };
}
