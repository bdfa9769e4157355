/**
 * A full run replaces each table with what it fetched. When a resource that has rows answers with
 * none at all, a glitch (a key that lost a permission, a portal half-restarted) is far likelier
 * than every record having been deleted, so the run stops instead of emptying the table;
 * `--allow-empty` accepts it.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { CliError } from "../cli-error.js";
import { quoteIdent } from "../load/ddl.js";
import { stagingTable } from "../load/staging.js";
import type { ExtractedName } from "../resources/registry.js";

export async function refuseEmptying(
  connection: DuckDBConnection,
  resources: readonly ExtractedName[],
): Promise<void> {
  for (const resource of resources) {
    const reader = await connection.runAndReadAll(
      `SELECT (SELECT count(*) FROM ${quoteIdent(resource)}), EXISTS (SELECT 1 FROM ${quoteIdent(stagingTable(resource))})`,
    );
    const [rows, staged] = reader.getRows()[0] ?? [0, true];
    if (staged !== true && Number(rows) > 0) {
      throw new CliError(
        `${resource}: the portal answered no records but the table holds ${rows}; nothing was changed. If the portal really is empty now, run again with --allow-empty`,
      );
    }
  }
}
