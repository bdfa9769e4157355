/**
 * The views a source of several portals (`--all-portals`, `--lake`) is read through, made the
 * same way for both so that a query sees the same columns in the same order from either:
 *
 * - a schema per portal whose views, named like the tables, read that portal's own tables (its
 *   database's, or its latest snapshot's files) under a first `portal` column: the columns of
 *   `report --db` on its database, never another portal's roster columns. A table the portal
 *   lacks is an empty view with the stacked view's columns.
 * - in `main`, each table stacked over every portal, `portal` first, then the columns by name in
 *   the portals' order (a column only some portals have is NULL in the others' rows).
 *
 * Portals come in the byte order of their names, whatever order the config file or the lake's
 * manifest lists them in: a report's rows and sheets are then in one order from every source.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent, quoteLiteral } from "../load/ddl.js";

/** One portal's data: per table, what a FROM clause reads for its rows (no `portal` column). */
export interface PortalTables {
  readonly name: string;
  readonly tables: ReadonlyMap<string, string>;
}

export interface PortalViewSources {
  readonly portals: readonly PortalTables[];
  /** The tables to make views of, in order; a table no portal has needs an `empty` entry. */
  readonly tables: readonly string[];
  /** For a table no portal has: a SELECT of its columns (without `portal`) and no rows. */
  readonly empty?: ReadonlyMap<string, string>;
}

/** A portal's name, as the `portal` column holds it, and the schema of its views. */
export interface PortalScope {
  readonly name: string;
  readonly schema: string;
}

/** Byte order (code units), the same on every machine, unlike a locale's. */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const withPortal = (name: string, from: string) =>
  `SELECT ${quoteLiteral(name)} AS portal, * FROM ${from}`;

/**
 * Creates the stacked views in `main` and a schema of views per portal on `setup`, a connection to
 * the in-memory database `catalog`; returns the portals in the order their results are stacked.
 */
export async function createPortalViews(
  setup: DuckDBConnection,
  catalog: string,
  sources: PortalViewSources,
): Promise<PortalScope[]> {
  const portals = [...sources.portals].sort((a, b) => byteOrder(a.name, b.name));
  const made: string[] = [];
  for (const table of sources.tables) {
    const selects = portals.flatMap((portal) => {
      const from = portal.tables.get(table);
      return from === undefined ? [] : [withPortal(portal.name, from)];
    });
    const empty = sources.empty?.get(table);
    if (selects.length === 0 && empty === undefined) continue;
    const body =
      selects.length > 0
        ? selects.join("\nUNION ALL BY NAME\n")
        : `SELECT CAST(NULL AS VARCHAR) AS portal, * FROM (${empty})`;
    await setup.run(`CREATE VIEW main.${quoteIdent(table)} AS ${body}`);
    made.push(table);
  }
  const scopes = portals.map((portal, i) => ({ name: portal.name, schema: `_portal_${i}` }));
  for (const [i, portal] of portals.entries()) {
    const schema = quoteIdent(scopes[i]!.schema);
    await setup.run(`CREATE SCHEMA ${schema}`);
    for (const table of made) {
      const from = portal.tables.get(table);
      const body =
        from === undefined
          ? `SELECT * FROM ${catalog}.main.${quoteIdent(table)} WHERE false`
          : withPortal(portal.name, from);
      await setup.run(`CREATE VIEW ${schema}.${quoteIdent(table)} AS ${body}`);
    }
  }
  return scopes;
}
