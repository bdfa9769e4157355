/**
 * Resume checkpoints: what a run has finished, per resource and kind of work, as string keys.
 * Kinds: `page` (a list page's start offset), `parent` (a parent id whose children were all
 * fetched, e.g. a user's takes), `lookup` (an id looked up one by one, e.g. a product),
 * `started` (a parent whose children were staged page by page, too many to hold until its
 * listing ended: src/extract/parent-children.ts).
 *
 * Order matters for correctness: mark a key done only after the rows it produced were flushed to
 * staging. A kill between the flush and the mark fetches that work again on resume; the merge's
 * dedupe by key makes the repeat harmless. The reverse order could lose rows.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { ExtractedName } from "../resources/registry.js";
import { CHECKPOINT_TABLE } from "./staging.js";

export type CheckpointKind = "page" | "parent" | "lookup" | "started";

/** Joins the keys of one mark into one text parameter (ASCII unit separator, chr(31)). */
const KEY_SEPARATOR = "\u001f";

/** Records `keys` as done for the run (marking a key twice is harmless). */
export async function markDone(
  connection: DuckDBConnection,
  runId: number,
  resource: ExtractedName,
  kind: CheckpointKind,
  keys: readonly string[],
): Promise<void> {
  if (keys.length === 0) return;
  // One text parameter split in SQL: binding a list costs a native value per key, which showed
  // in profiles of big runs. Keys are ids and page offsets, never the separator.
  if (keys.some((key) => key.includes(KEY_SEPARATOR))) {
    throw new Error("a checkpoint key contains the separator character");
  }
  await connection.run(
    `INSERT INTO ${CHECKPOINT_TABLE} SELECT $run::BIGINT, $resource, $kind, unnest(string_split($keys, chr(31)))`,
    { run: runId, resource, kind, keys: keys.join(KEY_SEPARATOR) },
  );
}

/** Keys already marked done for the run, resource and kind. */
export async function doneKeys(
  connection: DuckDBConnection,
  runId: number,
  resource: ExtractedName,
  kind: CheckpointKind,
): Promise<Set<string>> {
  const reader = await connection.runAndReadAll(
    `SELECT key FROM ${CHECKPOINT_TABLE} WHERE run_id = $run::BIGINT AND resource = $resource AND kind = $kind`,
    { run: runId, resource, kind },
  );
  return new Set(reader.getRows().map((row) => String(row[0])));
}

/** Forgets the checkpoints of one run, or of every run when `runId` is omitted. */
export async function clearCheckpoints(
  connection: DuckDBConnection,
  runId?: number,
): Promise<void> {
  if (runId === undefined) await connection.run(`DELETE FROM ${CHECKPOINT_TABLE}`);
  else
    await connection.run(`DELETE FROM ${CHECKPOINT_TABLE} WHERE run_id = $run::BIGINT`, {
      run: runId,
    });
}
