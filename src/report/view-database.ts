/**
 * An in-memory DuckDB whose tables are views over other data (a lake's files, several portals'
 * databases), for running reports on: `setup` attaches what the portals' tables are read from and
 * says how to read each (portal-views.ts makes the views), then runReports connects as it would
 * to a database file. The source runs each query per portal (`src/report/portal-scopes.ts`).
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { memoryLimit } from "../load/memory-limit.js";
import { PortalScopes } from "./portal-scopes.js";
import type { PortalViewSources } from "./portal-views.js";
import type { ReportSource } from "./report-source.js";

export interface ViewDatabase extends ReportSource {
  /** Closes every connection made and the instance. */
  close(): void;
}

/** `configuredMemory` is the `duckdbMemoryLimit` setting, if any. */
export async function openViewDatabase(
  setup: (connection: DuckDBConnection) => Promise<PortalViewSources>,
  configuredMemory: string | undefined,
): Promise<ViewDatabase> {
  const memory_limit = memoryLimit(configuredMemory);
  const instance = await DuckDBInstance.create(":memory:", { memory_limit });
  const connections: DuckDBConnection[] = [];
  let scopes: PortalScopes;
  try {
    const connection = await instance.connect();
    try {
      scopes = await PortalScopes.create(connection, await setup(connection));
    } finally {
      connection.closeSync();
    }
  } catch (error) {
    instance.closeSync();
    throw error;
  }
  return {
    portals: scopes,
    memoryLimit: configuredMemory,
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
