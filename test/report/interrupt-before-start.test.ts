/**
 * A stop that comes before a statement has begun: DuckDB forgets an interrupt made while nothing
 * runs, so the signal's listener fires into nothing. A statement started through `runWatched`
 * on a connection whose watched signal already fired is interrupted at once, not run to its end.
 * A real DuckDB; the statement would count to 10^13 if it ran.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, test } from "vitest";
import { interruptOnAbort, runWatched } from "../../src/report/interruption.js";

const ENDLESS = "SELECT count(*) FROM range(10000000000000) t(a) WHERE a % 7 = 3";

describe("a signal that fired before the statement began", () => {
  test.each(["startStream", "start"] as const)(
    "%s: the statement is interrupted at once",
    async (kind) => {
      const instance = await DuckDBInstance.create(":memory:");
      const connection = await instance.connect();
      const controller = new AbortController();
      const unwatch = interruptOnAbort(controller.signal, connection);
      try {
        // Ctrl-C while the connection was being opened: nothing was running to interrupt.
        controller.abort();
        const run = runWatched(connection, () => connection[kind](ENDLESS));
        await expect(run).rejects.toThrow(/interrupt/i);
      } finally {
        unwatch();
        connection.closeSync();
        instance.closeSync();
      }
    },
    60_000,
  );
});
