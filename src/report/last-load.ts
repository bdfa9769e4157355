/**
 * The most recent successful extract recorded in `_runs`, for the "About" sheet, the HTML report
 * and the mail: which run the data comes from and when it was loaded. Over several portals (a
 * lake, `--all-portals`) each portal has runs of its own, numbered from 1: the newest run of them
 * all would hide a portal whose extracts have been failing for weeks, so each portal's last one is
 * read, and the data is as old as the oldest of them.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { tableExists } from "../load/table-columns.js";
import type { PortalScopes } from "./portal-scopes.js";

/** One portal's last successful run (its id is the portal's own), or nulls when it has none. */
export interface PortalLoad {
  readonly portal: string;
  readonly runId: number | null;
  readonly finishedAt: Date | null;
}

/** The last successful run, or nulls when none is recorded (or there is no `_runs` table). */
export interface LastLoad {
  /** Null over several portals: ids are each portal's own (see `portals`). */
  runId: number | null;
  startedAt: Date | null;
  /** Over several portals, the oldest portal's (null when one has none). */
  finishedAt: Date | null;
  /** Over several portals, each one's, in the order given. */
  portals?: readonly PortalLoad[];
}

const NONE: LastLoad = { runId: null, startedAt: null, finishedAt: null };

const date = (value: unknown) => (value instanceof Date ? value : null);

/**
 * Reads the last successful run on `connection`; never throws for a missing `_runs` (a table, or
 * a view of a lake or of several portals' databases). `portals` are the source's portals (its
 * `portals`): with more than one, each one's is read.
 */
export async function lastLoad(
  connection: DuckDBConnection,
  portals?: Pick<PortalScopes, "scopes">,
): Promise<LastLoad> {
  if (!(await tableExists(connection, "_runs"))) return NONE;
  const names = portals?.scopes.map((scope) => scope.name) ?? [];
  if (names.length > 1) return portalLoads(connection, names);
  const reader = await connection.runAndReadAll(
    "SELECT run_id, started_at, finished_at FROM _runs WHERE status = 'succeeded' ORDER BY run_id DESC LIMIT 1",
  );
  const row = reader.getRowsJS()[0];
  if (!row) return NONE;
  return { runId: Number(row[0]), startedAt: date(row[1]), finishedAt: date(row[2]) };
}

/** Each portal's last successful run; the data's load time is the oldest of them. */
async function portalLoads(
  connection: DuckDBConnection,
  portals: readonly string[],
): Promise<LastLoad> {
  const reader = await connection.runAndReadAll(
    `SELECT portal, run_id, started_at, finished_at FROM _runs WHERE status = 'succeeded'
     QUALIFY row_number() OVER (PARTITION BY portal ORDER BY run_id DESC) = 1`,
  );
  const found = new Map(reader.getRowsJS().map((row) => [String(row[0]), row]));
  const loads = portals.map((portal): PortalLoad & { startedAt: Date | null } => {
    const row = found.get(portal);
    return {
      portal,
      runId: row ? Number(row[1]) : null,
      startedAt: row ? date(row[2]) : null,
      finishedAt: row ? date(row[3]) : null,
    };
  });
  const times = loads.map((l) => l.finishedAt);
  const oldest = times.includes(null)
    ? undefined
    : loads.reduce((a, b) => ((a.finishedAt as Date) <= (b.finishedAt as Date) ? a : b));
  return {
    runId: null,
    startedAt: oldest?.startedAt ?? null,
    finishedAt: oldest?.finishedAt ?? null,
    portals: loads.map(({ portal, runId, finishedAt }) => ({ portal, runId, finishedAt })),
  };
}
