/**
 * An in-memory DuckDB whose tables are views over other data (a lake's files, several portals'
 * databases), for running reports on: `setup` creates the views once, then runReports connects
 * as it would to a database file. Views that stack several portals' rows carry a `portal`
 * column; their portals' names, given, make the source run each query per portal
 * (`src/report/portal-scopes.ts`).
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { memoryLimit } from "../load/memory-limit.js";
import { PortalScopes } from "./portal-scopes.js";
import type { ReportSource } from "./report-source.js";

export interface ViewDatabase extends ReportSource {
  /** Closes every connection made and the instance. */
  close(): void;
}

/** `configuredMemory` is the `duckdbMemoryLimit` setting, if any. */
export async function openViewDatabase(
  setup: (connection: DuckDBConnection) => Promise<void>,
  configuredMemory: string | undefined,
  portals: readonly string[],
): Promise<ViewDatabase> {
  const memory_limit = memoryLimit(configuredMemory);
  const instance = await DuckDBInstance.create(":memory:", { memory_limit });
  const connections: DuckDBConnection[] = [];
  let scopes: PortalScopes;
  try {
    const connection = await instance.connect();
    try {
      await setup(connection);
      scopes = await PortalScopes.create(connection, portals);
    } finally {
      connection.closeSync();
    }
  } catch (error) {
    instance.closeSync();
    throw error;
  }
  return {
    portals: scopes,
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
