/**
 * Keys a full run would delete: rows of a resource table whose key is not in its staging table.
 * A full merge makes each table its staged set, so before it runs these keys are checked with the
 * portal (see src/extract/confirm-gone.ts): a row is removed only when the portal confirmably
 * no longer has it.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type ExtractedName, RESOURCES } from "../resources/registry.js";
import { quoteIdent } from "./ddl.js";
import { inSide } from "./side-file.js";
import { stagingTable } from "./staging.js";

/**
 * Keys in `resource`'s table but not (yet committed) in its staging table, ascending. On a
 * connection to the database; `side` names the side file.
 */
export async function unstagedKeys(
  connection: DuckDBConnection,
  side: string,
  resource: ExtractedName,
): Promise<number[]> {
  const key = quoteIdent(RESOURCES[resource].primaryKey);
  const reader = await connection.runAndReadAll(
    `SELECT ${key} FROM ${quoteIdent(resource)} EXCEPT SELECT ${key} FROM ${inSide(side, stagingTable(resource))} ORDER BY 1`,
  );
  return reader.getRows().map((row) => Number(row[0]));
}
