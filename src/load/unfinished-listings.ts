/**
 * What an interrupted attempt staged of the listings it did not finish, discarded when its run is
 * resumed. A resumed run lists such a listing again whole (a list not marked listed, a parent
 * marked started but not done), and that listing alone says what the portal holds: a record the
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
 * listing of run `runId` holds: all of them for a list not marked listed; for children listed per
 * parent, those of a parent marked started but not done. Other parents' children are staged in
 * one piece with their done mark (src/extract/parent-children.ts), and lookups a record at a
 * time, so nothing of theirs is unfinished.
 */
export async function discardUnfinished(
  connection: DuckDBConnection,
  runId: number,
  resource: ExtractedName,
): Promise<void> {
  const extraction = RESOURCES[resource].extraction;
  const marks = `SELECT key FROM ${CHECKPOINT_TABLE} WHERE run_id = $run::BIGINT AND resource = $resource`;
  const values = { run: runId, resource, kind: extraction.checkpoint };
  let unfinished: { stage: string; rejects: string };
  if (extraction.kind === "list") {
    const listed = `NOT EXISTS (${marks} AND kind = $kind AND key = '${LISTED_KEY}')`;
    unfinished = { stage: listed, rejects: listed };
  } else if (extraction.kind === "perParent") {
    // Telling a parent's rows by the field naming it is done only for such parents (see there).
    const started = (parent: string) =>
      `${parent} IN (${marks} AND kind = 'started') AND ${parent} NOT IN (${marks} AND kind = $kind)`;
    unfinished = {
      stage: started(`CAST(${quoteIdent(extraction.parentField)} AS VARCHAR)`),
      rejects: started(`json_extract_string(raw, '$.${extraction.parentField}')`),
    };
  } else {
    return;
  }
  await connection.run(
    `DELETE FROM ${quoteIdent(stagingTable(resource))} WHERE ${unfinished.stage}`,
    values,
  );
  // Its records that could not be typed were read from the same pages.
  await connection.run(
    `DELETE FROM _rejects WHERE run_id = $run::BIGINT AND resource = $resource AND ${unfinished.rejects}`,
    values,
  );
}
