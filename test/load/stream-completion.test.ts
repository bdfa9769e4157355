/**
 * The completion check of a streamed statement, on a connection of its own and on one already in
 * a transaction (publish reads DuckDB in one): there BEGIN is not tried (DuckDB refuses it, and
 * the refusal aborts the open transaction), the probe still tells a failure part-way from an end,
 * and the open transaction is left for its owner to end, with what it holds.
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withCompletionCheck } from "../../src/load/stream-completion.js";

let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(":memory:");
  connection = await instance.connect();
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

const LATE_FAILURE =
  "SELECT CASE WHEN i < 160000 THEN i ELSE error('boom') END AS v FROM range(200000) t(i)";
const WHOLE = "SELECT i AS v FROM range(200000) t(i)";

/** Streams `sql` to its end inside the check: the rows read and whether it ran to its end. */
function readChecked(sql: string): Promise<{ rows: number; completed: boolean }> {
  return withCompletionCheck(connection, async (completed) => {
    const result = await connection.stream(sql);
    let rows = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      rows += chunk.rowCount;
    }
    return { rows, completed: await completed() };
  });
}

describe("withCompletionCheck", () => {
  it("tells a statement that failed part-way from one that ran to its end", async () => {
    const failed = await readChecked(LATE_FAILURE);
    expect(failed.rows).toBeGreaterThan(0);
    expect(failed.rows).toBeLessThan(160000);
    expect(failed.completed).toBe(false);
    expect(await readChecked(WHOLE)).toEqual({ rows: 200000, completed: true });
    // The transaction it began is gone: the connection runs on as before.
    await connection.run("BEGIN TRANSACTION");
    await connection.run("ROLLBACK");
  });

  it("in a transaction already open: tells a success, and leaves it open with its work", async () => {
    await connection.run("BEGIN TRANSACTION");
    await connection.run("CREATE TEMP TABLE kept AS SELECT 42 AS v");
    expect(await readChecked(WHOLE)).toEqual({ rows: 200000, completed: true });
    await connection.run("INSERT INTO kept VALUES (43)");
    await connection.run("COMMIT");
    const kept = await connection.runAndReadAll("SELECT v FROM kept ORDER BY v");
    expect(kept.getRows()).toEqual([[42], [43]]);
    await connection.run("DROP TABLE kept");
  });

  it("in a transaction already open: tells a failure, and leaves the rollback to its owner", async () => {
    await connection.run("BEGIN TRANSACTION");
    const failed = await readChecked(LATE_FAILURE);
    expect(failed.rows).toBeGreaterThan(0);
    expect(failed.completed).toBe(false);
    // Still the aborted transaction: not rolled back by the check.
    await expect(connection.run("SELECT 1")).rejects.toThrow(/transaction is aborted/i);
    await connection.run("ROLLBACK");
    expect((await connection.runAndReadAll("SELECT 1")).getRows()).toEqual([[1]]);
  });
});
