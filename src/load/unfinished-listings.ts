/**
 * What an interrupted attempt staged of the listings it did not finish, discarded when its run is
 * resumed. A resumed run lists such a listing again whole (a list not marked listed, a parent's
 * children not marked done), and that listing alone says what the portal holds: a record the
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
 * listing of run `runId` holds: all of them for a list not marked listed, and for children listed
 * per parent those whose parent field names a parent not marked done (a child is taken to carry
 * the id of the parent it was listed for). Lookups stage each record whole and are left.
 */
export async function discardUnfinished(
  connection: DuckDBConnection,
  runId: number,
  resource: ExtractedName,
): Promise<void> {
  const extraction = RESOURCES[resource].extraction;
  const stage = quoteIdent(stagingTable(resource));
  const marks = `SELECT key FROM ${CHECKPOINT_TABLE} WHERE run_id = $run::BIGINT AND resource = $resource AND kind = $kind`;
  if (extraction.kind === "list") {
    await connection.run(
      `DELETE FROM ${stage} WHERE NOT EXISTS (${marks} AND key = '${LISTED_KEY}')`,
      { run: runId, resource, kind: extraction.checkpoint },
    );
    // Its records that could not be typed were read from the same pages.
    await connection.run(
      `DELETE FROM _rejects WHERE run_id = $run::BIGINT AND resource = $resource AND NOT EXISTS (${marks} AND key = '${LISTED_KEY}')`,
      { run: runId, resource, kind: extraction.checkpoint },
    );
  } else if (extraction.kind === "perParent") {
    const parent = quoteIdent(extraction.parentField);
    await connection.run(
      `DELETE FROM ${stage} WHERE CAST(${parent} AS VARCHAR) NOT IN (${marks})`,
      { run: runId, resource, kind: extraction.checkpoint },
    );
  }
}
