/**
 * Several portals' databases read as one: an in-memory DuckDB that attaches each file read-only
 * and has one view per published table, named like it, stacking every portal's rows (by column
 * name, so a roster column one portal lacks is NULL there) with a `portal` column. Reports run
 * each query once per portal (`src/report/portal-scopes.ts`).
 */
import { existsSync } from "node:fs";
import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import { quoteIdent, quoteLiteral } from "../load/ddl.js";
import { PUBLISHED_TABLES } from "../publish/published-tables.js";
import { openViewDatabase, type ViewDatabase } from "./view-database.js";

export interface PortalDatabase {
  /** A portal name (letters, digits, `_`, `-`). */
  readonly name: string;
  /** Path of its DuckDB file. */
  readonly db: string;
}

async function createViews(setup: DuckDBConnection, portals: readonly PortalDatabase[]) {
  const present = new Map<string, string[]>();
  for (const [i, portal] of portals.entries()) {
    const alias = quoteIdent(`portal_${i}`);
    if (!existsSync(portal.db)) {
      throw new LmsExportError(
        "not-found",
        `portal ${portal.name}: no database at ${portal.db}; run "lms-export extract --portal ${portal.name}" first`,
      );
    }
    try {
      await setup.run(`ATTACH ${quoteLiteral(portal.db)} AS ${alias} (READ_ONLY)`);
    } catch (error) {
      throw new LmsExportError(
        "storage-failed",
        `portal ${portal.name}: cannot open ${portal.db} (${(error as Error).message.split("\n")[0]}); extract it first`,
      );
    }
    const reader = await setup.runAndReadAll(
      `SELECT table_name FROM duckdb_tables() WHERE database_name = ${quoteLiteral(`portal_${i}`)}`,
    );
    for (const [table] of reader.getRowsJS()) {
      const selects = present.get(String(table)) ?? [];
      selects.push(
        `SELECT *, ${quoteLiteral(portal.name)} AS portal FROM ${alias}.main.${quoteIdent(String(table))}`,
      );
      present.set(String(table), selects);
    }
  }
  for (const table of PUBLISHED_TABLES) {
    const selects = present.get(table);
    if (!selects) continue;
    await setup.run(`CREATE VIEW ${quoteIdent(table)} AS ${selects.join("\nUNION ALL BY NAME\n")}`);
  }
}

/** Opens every portal's database read-only behind one set of views. */
export function openPortalsDatabase(
  portals: readonly PortalDatabase[],
  memoryLimit?: string,
): Promise<ViewDatabase> {
  return openViewDatabase(
    (setup) => createViews(setup, portals),
    memoryLimit,
    portals.map((p) => p.name),
  );
}
