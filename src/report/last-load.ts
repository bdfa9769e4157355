/**
 * When the data a report reads was loaded, for the "About" sheet, the HTML report and the mail:
 * which run loaded it and when. That is per table: an `extract --only take` run refreshes takes
 * alone, and the groups, links and access records behind "required" and "overdue" are still those
 * of the run before, so the newest run's time would make week-old groups look fresh. The data is as
 * old as the oldest of the last successful loads of the tables the report reads (tables-read.ts),
 * and when those tables were loaded by different runs, each run's tables are given.
 *
 * Over several portals (a lake, `--all-portals`) each portal has runs of its own, numbered from 1:
 * the newest run of them all would hide a portal whose extracts have been failing for weeks, so
 * each portal's tables are read, and the data is as old as the oldest portal's. Each portal's is
 * given as one portal's is, with its runs' tables when different runs loaded them: "south" alone
 * at its oldest load hid that its takes were loaded by a later `extract --only take`.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteLiteral } from "../load/ddl.js";
import { tableExists } from "../load/table-columns.js";
import type { PortalScopes } from "./portal-scopes.js";
import { tablesRead } from "./tables-read.js";

/**
 * One portal's oldest table load (the run id is the portal's own), or nulls when it has none or
 * a table read was never loaded; each run's tables when different runs loaded them.
 */
export interface PortalLoad {
  readonly portal: string;
  readonly runId: number | null;
  readonly finishedAt: Date | null;
  readonly tables?: readonly TablesLoad[];
}

/** The tables one run loaded last, of those the report reads; a null run for those none did. */
export interface TablesLoad {
  readonly tables: readonly string[];
  readonly runId: number | null;
  readonly finishedAt: Date | null;
  /** The run of the most tables, two or more: shown as "others" where space is short. */
  readonly others: boolean;
}

/** When the data was loaded, or nulls when no successful load is recorded (or no `_runs`). */
export interface LastLoad {
  /** The run that loaded the oldest data; null over several portals (see `portals`). */
  runId: number | null;
  /** The oldest of the tables' last loads; over several portals, the oldest portal's. */
  finishedAt: Date | null;
  /** One portal whose tables were last loaded by different runs: each run's, newest first. */
  tables?: readonly TablesLoad[];
  /** Over several portals, each one's, in the order given. */
  portals?: readonly PortalLoad[];
}

const NONE: LastLoad = { runId: null, finishedAt: null };

const date = (value: unknown) => (value instanceof Date ? value : null);

/** One table's last successful load, of one portal (`""` for a database of one). */
interface TableLoad {
  readonly portal: string;
  readonly table: string;
  readonly runId: number;
  readonly finishedAt: Date | null;
}

/**
 * The SQL of each table's last successful load. A run's tables are those it has figures for in
 * `_run_resources`; a run without figures (a database of an older version, or no
 * `_run_resources` at all) loaded those its options name (`--only`), else every table.
 */
function tableLoadsSql(tables: readonly string[], byPortal: boolean, figures: boolean): string {
  const portal = byPortal ? "u.portal" : "''";
  const samePortal = byPortal ? " AND f.portal = u.portal" : "";
  const figuresFrom = figures
    ? "_run_resources"
    : "(SELECT NULL::BIGINT AS run_id, NULL::VARCHAR AS resource, NULL::VARCHAR AS portal WHERE false)";
  const names = tables.map((t) => `(${quoteLiteral(t)})`).join(", ");
  return `WITH wanted(resource) AS (VALUES ${names}),
  figures AS (SELECT * FROM ${figuresFrom}),
  loads AS (
    SELECT ${portal} AS portal, w.resource, u.run_id, u.finished_at
    FROM _runs u CROSS JOIN wanted w
    WHERE u.status = 'succeeded' AND (
      EXISTS (SELECT 1 FROM figures f WHERE f.run_id = u.run_id AND f.resource = w.resource${samePortal})
      OR (NOT EXISTS (SELECT 1 FROM figures f WHERE f.run_id = u.run_id${samePortal})
          AND (json_type(CAST(u.options AS VARCHAR), '$.resources') IS DISTINCT FROM 'ARRAY'
               OR list_contains(json_extract_string(CAST(u.options AS VARCHAR), '$.resources[*]'), w.resource))))
  )
  SELECT portal, resource, run_id, finished_at FROM loads
  QUALIFY row_number() OVER (PARTITION BY portal, resource ORDER BY run_id DESC) = 1`;
}

async function tableLoads(
  connection: DuckDBConnection,
  tables: readonly string[],
  byPortal: boolean,
): Promise<TableLoad[]> {
  const figures = await tableExists(connection, "_run_resources");
  const reader = await connection.runAndReadAll(tableLoadsSql(tables, byPortal, figures));
  return reader.getRowsJS().map((row) => ({
    portal: String(row[0]),
    table: String(row[1]),
    runId: Number(row[2]),
    finishedAt: date(row[3]),
  }));
}

/** The oldest load (a load with no finish time counts as the oldest), or undefined for none. */
function oldest<T extends { finishedAt: Date | null }>(loads: readonly T[]): T | undefined {
  return loads.reduce<T | undefined>((a, b) => {
    if (a === undefined || a.finishedAt === null) return a ?? b;
    return b.finishedAt === null || b.finishedAt < a.finishedAt ? b : a;
  }, undefined);
}

/** The tables of each run, newest run first, in the order `tables` gives them. */
function byRun(loads: readonly TableLoad[], tables: readonly string[]): TablesLoad[] {
  const runs = new Map<number, { tables: string[]; finishedAt: Date | null }>();
  for (const table of tables) {
    const load = loads.find((l) => l.table === table);
    if (!load) continue;
    const run = runs.get(load.runId) ?? { tables: [], finishedAt: load.finishedAt };
    run.tables.push(table);
    runs.set(load.runId, run);
  }
  const ordered = [...runs.entries()].sort(([a], [b]) => b - a);
  // The run of the most tables (the older one of a tie) is the "others".
  const most = ordered.reduce((m, [, run]) => Math.max(m, run.tables.length), 0);
  const others = ordered.findLast(([, run]) => run.tables.length === most)?.[0];
  const loaded = ordered.map(([runId, run]) => ({
    ...run,
    runId,
    others: runId === others && run.tables.length > 1,
  }));
  // A table read that no run loaded (an `--only` extract into a new database) is named as such:
  // its rows are none, not as fresh as the others'.
  const never = tables.filter((table) => !loads.some((l) => l.table === table));
  if (never.length === 0) return loaded;
  return [...loaded, { tables: never, runId: null, finishedAt: null, others: false }];
}

/**
 * When the data the report queries `queries` (their SQL) read on `connection` was loaded; never
 * throws for a missing `_runs` (a table, or a view of a lake or of several portals' databases).
 * `portals` are the source's portals (its `portals`): with more than one, each one's is read.
 */
export async function lastLoad(
  connection: DuckDBConnection,
  portals: Pick<PortalScopes, "scopes"> | undefined,
  queries: readonly string[],
): Promise<LastLoad> {
  if (!(await tableExists(connection, "_runs"))) return NONE;
  const tables = await tablesRead(connection, queries);
  const names = portals?.scopes.map((scope) => scope.name) ?? [];
  if (names.length > 1) {
    return portalLoads(await tableLoads(connection, tables, true), names, tables);
  }
  return sourceLoad(await tableLoads(connection, tables, false), tables);
}

/**
 * The load of one source (a database, or one portal's share of several) from its tables' `loads`:
 * the oldest, none when a table read was never loaded, and each run's tables when there are two.
 */
function sourceLoad(loads: readonly TableLoad[], tables: readonly string[]): LastLoad {
  const first = oldest(loads);
  if (!first) return NONE;
  const runs = byRun(loads, tables);
  const never = runs.some((run) => run.runId === null);
  return {
    runId: never ? null : first.runId,
    finishedAt: never ? null : first.finishedAt,
    ...(runs.length > 1 ? { tables: runs } : {}),
  };
}

/** Each portal's load, as one portal's is; the data's load time is the oldest of them. */
function portalLoads(
  found: readonly TableLoad[],
  portals: readonly string[],
  tables: readonly string[],
): LastLoad {
  const loads = portals.map((portal): PortalLoad => {
    const load = sourceLoad(
      found.filter((l) => l.portal === portal),
      tables,
    );
    const { runId, finishedAt } = load;
    return { portal, runId, finishedAt, ...(load.tables ? { tables: load.tables } : {}) };
  });
  const times = loads.map((l) => l.finishedAt);
  const first = times.includes(null) ? undefined : oldest(loads);
  return { runId: null, finishedAt: first?.finishedAt ?? null, portals: loads };
}
