/**
 * Whether a streamed statement ran to its end. @duckdb/node-api ends a streamed result that
 * failed part-way (a value that does not convert, error(), memory) exactly as one that is
 * exhausted: fetchChunk() answers an empty chunk and the error is lost (the C API's
 * duckdb_fetch_chunk answers NULL for both, and the bindings do not pass on the result's error).
 * A statement run inside a transaction leaves a trace DuckDB does report: the transaction is
 * aborted, and the next statement in it is refused. So the statement runs in one, and a probe
 * after its last row tells the two endings apart. Abandoning a stream early (a reader that went
 * away) aborts nothing.
 *
 * A connection may already be inside a transaction (publish reads DuckDB in one). BEGIN is then
 * not tried: DuckDB refuses it, and the refusal itself aborts the open transaction. The failure
 * aborts that transaction all the same, so the probe still tells; ending it is for whoever began it.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { errorText } from "../errors/error-text.js";

/** DuckDB's refusal of a statement in a transaction that an earlier failure aborted. */
const ABORTED = /transaction is aborted/i;

/** What a message about a stream cut short says of its cause, which nothing here can know. */
export const CAUSE_UNKNOWN =
  "DuckDB's client library does not pass on why: run it in the duckdb shell to see the error";

/**
 * Runs `work`, inside a transaction on `connection` unless one is open already; `completed()`
 * answers, once a streamed statement started by `work` has given its last row, whether it ended
 * without failing. A transaction begun here is rolled back after `work`, however it ends: `work`
 * only reads. One that was open is left open, for its owner to end. With `fresh` the caller
 * says it opened `connection` for this and began nothing on it, so asking whether it is in a
 * transaction (two statements, a millisecond or more: a split mail streams twice per recipient)
 * is skipped.
 */
export async function withCompletionCheck<T>(
  connection: DuckDBConnection,
  work: (completed: () => Promise<boolean>) => Promise<T>,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<T> {
  const begin = fresh || !(await inTransaction(connection));
  if (begin) await connection.run("BEGIN TRANSACTION");
  try {
    return await work(() => ranToEnd(connection));
  } finally {
    // Fails only when the statement itself ended the transaction (a COMMIT typed to sql).
    if (begin) await connection.run("ROLLBACK").catch(() => undefined);
  }
}

/** Whether the transaction `connection` is in was not aborted by a failure. */
async function ranToEnd(connection: DuckDBConnection): Promise<boolean> {
  try {
    await connection.run("SELECT 1");
    return true;
  } catch (error) {
    if (ABORTED.test(errorText(error))) return false;
    throw error;
  }
}

/**
 * Whether `connection` is inside a transaction begun on it. Outside one every statement runs in
 * a transaction of its own, so two statements see different ids; inside one, the same.
 */
async function inTransaction(connection: DuckDBConnection): Promise<boolean> {
  const id = async () =>
    (await connection.runAndReadAll("SELECT txid_current()")).getRows()[0]?.[0];
  const first = await id();
  return first === (await id());
}
