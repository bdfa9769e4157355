/**
 * Several portals' databases read as one: an in-memory DuckDB that attaches each file read-only,
 * with views over each portal's tables and over all of them stacked (`portal-views.ts`). Reports
 * run each query once per portal (`src/report/portal-scopes.ts`).
 */
import { existsSync } from "node:fs";
import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import { quoteIdent, quoteLiteral } from "../load/ddl.js";
import { DatabaseLockedError, openError } from "../load/open-errors.js";
import { type LockWait, whileLocked } from "../load/wait-for-lock.js";
import { silentLogger } from "../log/logger.js";
import { PUBLISHED_TABLES } from "../publish/published-tables.js";
import type { PortalTables, PortalViewSources } from "./portal-views.js";
import { openViewDatabase, type ViewDatabase } from "./view-database.js";

export interface PortalDatabase {
  /** A portal name (letters, digits, `_`, `-`). */
  readonly name: string;
  /** Path of its DuckDB file. */
  readonly db: string;
}

/** A portal whose database file is not there, with the command that makes it. */
export function noDatabase(portal: PortalDatabase): LmsExportError {
  return new LmsExportError(
    "not-found",
    `portal ${portal.name}: no database at ${portal.db}; run "lms-export extract --portal ${portal.name}" first`,
  );
}

/**
 * Attaches `portal`'s database read-only as `alias`. A database another process holds (an
 * extract merging into it) is waited for as `wait` says, and named as in use, as `report --db`
 * names it: it is there, and extracting it again is not what it needs.
 */
async function attachPortal(
  setup: DuckDBConnection,
  portal: PortalDatabase,
  alias: string,
  wait: LockWait,
): Promise<void> {
  await whileLocked(portal.db, wait, async () => {
    try {
      await setup.run(`ATTACH ${quoteLiteral(portal.db)} AS ${alias} (READ_ONLY)`);
    } catch (error) {
      const failure = openError(portal.db, error);
      if (failure instanceof DatabaseLockedError) {
        throw new DatabaseLockedError(`portal ${portal.name}: ${failure.held}`, failure.pid, {
          cause: error,
        });
      }
      throw new LmsExportError(
        "storage-failed",
        `portal ${portal.name}: cannot open ${portal.db} (${(error as Error).message.split("\n")[0]}); extract it first`,
      );
    }
  });
}

/** Attaches every portal's database: each one's tables are read where they are. */
async function attachPortals(
  setup: DuckDBConnection,
  portals: readonly PortalDatabase[],
  wait: LockWait,
): Promise<PortalViewSources> {
  const sources: PortalTables[] = [];
  for (const [i, portal] of portals.entries()) {
    const alias = quoteIdent(`portal_${i}`);
    if (!existsSync(portal.db)) throw noDatabase(portal);
    await attachPortal(setup, portal, alias, wait);
    const reader = await setup.runAndReadAll(
      `SELECT table_name FROM duckdb_tables() WHERE database_name = ${quoteLiteral(`portal_${i}`)}
       AND schema_name = 'main'`,
    );
    const tables = new Map<string, string>();
    for (const [table] of reader.getRowsJS()) {
      tables.set(String(table), `${alias}.main.${quoteIdent(String(table))}`);
    }
    sources.push({ name: portal.name, tables });
  }
  return { portals: sources, tables: PUBLISHED_TABLES };
}

/**
 * Opens every portal's database read-only behind one set of views; `wait` says how long a
 * database another process holds is waited for (default: not at all).
 */
export function openPortalsDatabase(
  portals: readonly PortalDatabase[],
  memoryLimit?: string,
  wait: LockWait = { seconds: undefined, logger: silentLogger },
): Promise<ViewDatabase> {
  return openViewDatabase((setup) => attachPortals(setup, portals, wait), memoryLimit);
}
