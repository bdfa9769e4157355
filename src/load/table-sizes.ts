/**
 * Row counts of resource tables and their staging tables, in one query: what the end of an extract
 * needs to know before it merges (a resumed run's record counts, whether a full run would empty a
 * table, how big the largest primary key index gets).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type ExtractedName, RESOURCES } from "../resources/registry.js";
import { quoteIdent } from "./ddl.js";
import { inSide } from "./side-file.js";
import { stagingTable } from "./staging.js";

export interface TableSize {
  /** Rows in the resource table. */
  readonly rows: number;
  /** Rows in its staging table (with `distinct`, records: rows of distinct keys). */
  readonly staged: number;
}

/**
 * On a connection to the database; `side` names the side file that holds the staging tables.
 * `distinct` counts the staged records by key: a resumed run stages again what an interrupted
 * attempt staged of a list it lists whole again, and the merge keeps each record once.
 */
export async function tableSizes(
  connection: DuckDBConnection,
  side: string,
  resources: readonly ExtractedName[],
  distinct = false,
): Promise<Map<ExtractedName, TableSize>> {
  const sizes = new Map<ExtractedName, TableSize>();
  if (resources.length === 0) return sizes;
  const staged = (resource: ExtractedName) =>
    distinct ? `count(DISTINCT ${quoteIdent(RESOURCES[resource].primaryKey)})` : "count(*)";
  const sql = resources
    .map(
      (resource) =>
        `SELECT '${resource}' AS resource, (SELECT count(*) FROM ${quoteIdent(resource)}) AS n, (SELECT ${staged(resource)} FROM ${inSide(side, stagingTable(resource))}) AS staged`,
    )
    .join(" UNION ALL ");
  const reader = await connection.runAndReadAll(sql);
  const byName = new Map(reader.getRows().map(([name, n, staged]) => [String(name), [n, staged]]));
  for (const resource of resources) {
    const [rows, staged] = byName.get(resource) ?? [0, 0];
    sizes.set(resource, { rows: Number(rows), staged: Number(staged) });
  }
  return sizes;
}
