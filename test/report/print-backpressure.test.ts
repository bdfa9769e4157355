/**
 * `sql` prints to a reader that may be slower than DuckDB (`sql ... | gzip` over a slow disk):
 * the rows wait in DuckDB's result, not in the output stream's buffer, nor, for the table, in
 * its own memory past a block of rows. They reach the stream in batches of many rows, not with a
 * write each.
 */
import { Writable } from "node:stream";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect, test } from "vitest";
import { BATCH_CHARS } from "../../src/report/print-output.js";
import { printResult } from "../../src/report/print-result.js";

/** A stream that takes a write per turn of the event loop, noting the most it ever held. */
function slowReader(): {
  out: Writable;
  most: () => number;
  bytes: () => number;
  writes: () => number;
} {
  let most = 0;
  let bytes = 0;
  let writes = 0;
  const out = new Writable({
    highWaterMark: 4096,
    write(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      writes++;
      setImmediate(callback);
    },
  });
  const write = out.write.bind(out);
  out.write = ((chunk: string) => {
    const more = write(chunk);
    most = Math.max(most, out.writableLength);
    return more;
  }) as Writable["write"];
  return { out, most: () => most, bytes: () => bytes, writes: () => writes };
}

test.each(["csv", "json", "table"] as const)(
  "%s: a slow reader never has more than a batch of rows waiting for it",
  async (format) => {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    try {
      const rows = 50_000;
      const result = await connection.stream(
        `SELECT i, 'row number ' || i AS label FROM range(${rows}) t(i)`,
      );
      const reader = slowReader();
      const count = await printResult(result, reader.out, format, { neutraliseFormulas: true });
      await new Promise<void>((resolve) => reader.out.end(resolve));
      expect(count).toBe(rows);
      // Every row arrived, and at no moment was more than the buffer's mark and a batch held.
      expect(reader.bytes()).toBeGreaterThan(rows * 10);
      expect(reader.most()).toBeLessThan(4096 + BATCH_CHARS + 200);
      // A batch of rows to a write: the bytes over the batch's size, and the last one.
      expect(reader.writes()).toBeLessThanOrEqual(Math.ceil(reader.bytes() / BATCH_CHARS) + 1);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  },
);
