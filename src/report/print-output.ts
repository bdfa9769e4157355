/**
 * The stream `sql` prints its rows to, written in batches. A write per row cost a system call per
 * row (stdout to a file or a pipe is written synchronously) and the stream's bookkeeping for each:
 * two million rows spent seconds on that alone. Rows are gathered into text of about 64 KiB and
 * written at once; a full pipe (`sql ... | gzip` over a slow disk) is waited for, so no more than
 * a batch waits in memory.
 */
import type { Writable } from "node:stream";
import type { DuckDBResult, DuckDBValue } from "@duckdb/node-api";

/** About how much text a batch gathers before it is written. */
export const BATCH_CHARS = 64 * 1024;

/**
 * Whether nobody reads `out` any more (`sql ... | head`). The process's own stdout is never
 * destroyed: a closed pipe shows as its error and its close.
 */
export function gone(out: Writable): boolean {
  return out.destroyed || out.writableEnded || out.errored !== null || out.closed;
}

/** Resolves when `out` takes more writes again, or will never (closed or failed). */
function drained(out: Writable): Promise<void> {
  if (gone(out)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off("drain", done);
      out.off("close", done);
      out.off("error", done);
      resolve();
    };
    out.on("drain", done);
    out.on("close", done);
    out.on("error", done);
  });
}

/** Text for `out`, written a batch at a time; {@link flush} writes what is left. */
export class BatchedOutput {
  private pending = "";

  constructor(private readonly out: Writable) {}

  /**
   * Adds `text`; when the batch is full, answers the promise of its write (to await before the
   * next row, as the reader may be slow), else nothing, so that a row costs no promise.
   */
  add(text: string): Promise<void> | undefined {
    this.pending += text;
    return this.pending.length >= BATCH_CHARS ? this.flush() : undefined;
  }

  /** Writes the text gathered, and waits while the reader catches up. */
  flush(): Promise<void> {
    const text = this.pending;
    this.pending = "";
    // Written to a reader that went away it would only raise ERR_STREAM_DESTROYED.
    if (text === "" || gone(this.out)) return Promise.resolve();
    return this.out.write(text) ? Promise.resolve() : drained(this.out);
  }
}

/**
 * Calls `visit` with each row of `result` and its index (from 0) until the reader of `out` has
 * gone away, awaiting what it answers, if anything, before the next row; answers the row count.
 * The loop over a chunk's rows is synchronous: a promise per row (an async generator's) cost more
 * than formatting the row.
 */
export async function forEachRow(
  result: DuckDBResult,
  out: Writable,
  visit: (row: DuckDBValue[], index: number) => Promise<void> | undefined,
): Promise<number> {
  let count = 0;
  for await (const chunk of result) {
    if (gone(out)) break;
    const rows = chunk.rowCount;
    for (let r = 0; r < rows; r++) {
      const waiting = visit(chunk.getRowValues(r), count);
      count++;
      if (waiting) await waiting;
    }
  }
  return count;
}
