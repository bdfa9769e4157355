/**
 * What an interrupted attempt staged of the listings it did not finish, discarded when its run is
 * resumed. A resumed run lists such a list again whole (one not marked listed), and that
 * listing alone says what the portal holds: a record the
 * stopped attempt staged that the portal removed since, or that the attempt's re-read by key
 * ranges would have found gone, is on none of its pages. Kept, it would be merged with the rest,
 * and a full run would store a record the portal no longer has.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type ExtractedName, RESOURCES } from "../resources/registry.js";
import { quoteIdent } from "./ddl.js";
import { CHECKPOINT_TABLE, stagingTable } from "./staging.js";

/** The checkpoint key of a list whose every page is staged (run-extract.ts). */
export const LISTED_KEY = "listed";

/**
 * Deletes, on a connection to the side file, the staged rows of `resource` that no finished
 * listing of run `runId` holds: all of them for a list not marked listed. Children listed per
 * parent are staged in one piece with their parent's mark (run-extract.ts, fetchChildren), and
 * lookups a record at a time, so nothing of theirs is unfinished.
 */
export async function discardUnfinished(
  connection: DuckDBConnection,
  runId: number,
  resource: ExtractedName,
): Promise<void> {
  const extraction = RESOURCES[resource].extraction;
  if (extraction.kind !== "list") return;
  const marks = `SELECT key FROM ${CHECKPOINT_TABLE} WHERE run_id = $run::BIGINT AND resource = $resource AND kind = $kind AND key = '${LISTED_KEY}'`;
  const values = { run: runId, resource, kind: extraction.checkpoint };
  await connection.run(
    `DELETE FROM ${quoteIdent(stagingTable(resource))} WHERE NOT EXISTS (${marks})`,
    values,
  );
  // Its records that could not be typed were read from the same pages.
  await connection.run(
    `DELETE FROM _rejects WHERE run_id = $run::BIGINT AND resource = $resource AND NOT EXISTS (${marks})`,
    values,
  );
}
