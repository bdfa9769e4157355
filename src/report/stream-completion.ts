/**
 * Whether a streamed statement ran to its end. @duckdb/node-api ends a streamed result that
 * failed part-way (a value that does not convert, error(), memory) exactly as one that is
 * exhausted: fetchChunk() answers an empty chunk and the error is lost. A statement run inside a
 * transaction leaves a trace DuckDB does report: the transaction is aborted, and the next
 * statement in it is refused. So the statement runs in one, and a probe after its last row tells
 * the two endings apart. Abandoning a stream early (a reader that went away) aborts nothing.
 */
import type { DuckDBConnection } from "@duckdb/node-api";

/** DuckDB's refusal of a statement in a transaction that an earlier failure aborted. */
const ABORTED = /transaction is aborted/i;

/**
 * Runs `work` inside a transaction on `connection`; `completed()` answers, once a streamed
 * statement started by `work` has given its last row, whether it ended without failing. The
 * transaction is rolled back after `work`, however it ends: `sql` opens the database read-only.
 */
export async function withCompletionCheck<T>(
  connection: DuckDBConnection,
  work: (completed: () => Promise<boolean>) => Promise<T>,
): Promise<T> {
  await connection.run("BEGIN TRANSACTION");
  try {
    return await work(async () => {
      try {
        await connection.run("SELECT 1");
        return true;
      } catch (error) {
        if (ABORTED.test(error instanceof Error ? error.message : String(error))) return false;
        throw error;
      }
    });
  } finally {
    // Fails only when the statement itself ended the transaction (a COMMIT typed to sql).
    await connection.run("ROLLBACK").catch(() => undefined);
  }
}
