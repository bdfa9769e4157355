/**
 * What reports read: one database, or views over several portals' data (`--all-portals`,
 * `--lake`). Over several portals the ids of one portal say nothing about another's (user 7 of
 * one portal is not user 7 of the next), so a query must not join across them: `portals` then
 * runs each query once per portal and stacks the results (`src/report/portal-scopes.ts`).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { PortalScopes } from "./portal-scopes.js";

export interface ReportSource {
  /** A new connection: one per concurrent reader (a stream ends if its connection runs more). */
  connect(): Promise<DuckDBConnection>;
  /** Set when the source holds several portals. */
  readonly portals?: PortalScopes | undefined;
  /** The memory ceiling the user configured; without one, a run sizes it to the data. */
  readonly memoryLimit?: string | undefined;
}
