import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { toRecordBatch } from "../../src/encode/to-record-batch.js";
import { stagingWriter } from "../../src/load/append-batch.js";
import { openDatabase } from "../../src/load/database.js";
import { type MergeOptions, mergeStaging } from "../../src/load/merge.js";
import { finishRun, startRun } from "../../src/load/runs.js";
import { clearSide } from "../../src/load/side-file.js";
import { EXTRACTED, type ExtractedName } from "../../src/resources/registry.js";
import { tempDir } from "../helpers/temp-dir.js";
import { kill, spawnHelper, waitForLine } from "./helpers/child-process.js";
import { memory, withSideTables } from "./helpers/memory-db.js";

async function stage(connection: DuckDBConnection, resource: ExtractedName, records: unknown[]) {
  const { batch, rejects } = toRecordBatch(resource, records);
  expect(rejects).toEqual([]);
  const writer = await stagingWriter(connection, resource);
  if (batch) await writer.append(batch);
  await writer.close();
}

/**
 * A merge with the database as its own side file, then the side file emptied as the end of a
 * run empties it (the merge itself leaves the staged rows).
 */
async function merged(
  connection: DuckDBConnection,
  resources: readonly ExtractedName[],
  mode: "full" | "incremental",
  options: MergeOptions = {},
) {
  const { side } = await withSideTables(connection);
  const counts = await mergeStaging(connection, side, resources, mode, options);
  await clearSide(connection);
  return counts;
}

const group = (id: number, name: string) => ({
  grp_id: id,
  grp_name: name,
  grp_created_date: "2026-01-01T00:00:00Z",
  grp_updated_date: "2026-01-02T00:00:00+01:00",
});

async function groups(connection: DuckDBConnection) {
  const reader = await connection.runAndReadAll("SELECT grp_id, grp_name FROM grp ORDER BY grp_id");
  return reader.getRows().map(([id, name]) => [Number(id), name]);
}

async function count(connection: DuckDBConnection, table: string): Promise<number> {
  const reader = await connection.runAndReadAll(`SELECT count(*) FROM "${table}"`);
  return Number(reader.getRows()[0]?.[0]);
}

/** A database whose grp (1 "a", 2 "b") and take (1) tables were loaded by one full merge. */
async function loadedGroupsAndTake(): Promise<DuckDBConnection> {
  const connection = await memory();
  await stage(connection, "grp", [group(1, "a"), group(2, "b")]);
  await stage(connection, "take", [{ take_id: 1, take_score: 5 }]);
  await merged(connection, ["grp", "take"], "full");
  return connection;
}

/** Row count and a digest of every row of every resource and staging table. */
async function snapshot(connection: DuckDBConnection): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of EXTRACTED) {
    for (const table of [name, `_stage_${name}`]) {
      const reader = await connection.runAndReadAll(
        `SELECT count(*) || ':' || coalesce(md5(string_agg(t::VARCHAR, chr(10) ORDER BY t::VARCHAR)), '') FROM "${table}" t`,
      );
      out[table] = String(reader.getRows()[0]?.[0]);
    }
  }
  return out;
}

describe("mergeStaging", () => {
  describe("a record the database holds in a later version than the staged copy", () => {
    // `apply` wrote the portal's answer (updated the 5th) while an extract paging before the edit
    // staged the record as of the 2nd: merging it would put the old values back. Take the staged
    // copy of a resource apply never edits (take), and a staged copy that is later.
    const dated = (id: number, name: string, updated: string) => ({
      ...group(id, name),
      grp_updated_date: updated,
    });
    /**
     * Group 1 edited in the database (stored on the 5th), by an `apply` recorded `appliedAt`
     * (none when null), in a run begun at 12:00; answers the connection and the run.
     */
    async function editedThenStaged(
      extra: Record<string, unknown>[],
      appliedAt: string | null = "2026-02-01 12:30:00",
    ): Promise<{ connection: DuckDBConnection; runId: number }> {
      const connection = await memory();
      await stage(connection, "grp", [dated(1, "a", "2026-01-02T00:00:00Z"), group(2, "b")]);
      await merged(connection, ["grp"], "full");
      const startedAt = new Date("2026-02-01T12:00:00Z");
      const runId = await startRun(connection, {
        mode: "full",
        since: null,
        options: {},
        startedAt,
      });
      await connection.run(
        "UPDATE grp SET grp_name = 'edited', grp_updated_date = TIMESTAMP '2026-01-05 00:00:00' WHERE grp_id = 1",
      );
      if (appliedAt !== null) {
        await connection.run(
          `INSERT INTO _changes VALUES ('set', 'groups.csv', 2, 'grp.edit', 1, NULL, NULL, 'applied', NULL, TIMESTAMP '${appliedAt}', NULL)`,
        );
      }
      await stage(connection, "grp", [dated(1, "a", "2026-01-02T00:00:00Z"), ...extra]);
      return { connection, runId };
    }
    for (const mode of ["full", "incremental"] as const) {
      it(`${mode}: is kept when apply wrote it during the run; a later staged copy still wins`, async () => {
        const { connection, runId } = await editedThenStaged([
          dated(2, "b-later", "2026-01-06T00:00:00Z"),
          dated(3, "c", "2026-01-01T00:00:00Z"),
        ]);
        await merged(connection, ["grp"], mode, { keepAppliedDuring: runId });
        expect(await groups(connection)).toEqual([
          [1, "edited"],
          [2, "b-later"],
          [3, "c"],
        ]);
      });
      it(`${mode}: is replaced by the portal's copy when no apply wrote it during the run`, async () => {
        // A portal restored from a backup answers an older version than the database holds.
        for (const appliedAt of [null, "2026-02-01 11:59:59"]) {
          const { connection, runId } = await editedThenStaged([group(2, "b")], appliedAt);
          await merged(connection, ["grp"], mode, { keepAppliedDuring: runId });
          expect(await groups(connection)).toEqual([
            [1, "a"],
            [2, "b"],
          ]);
        }
      });
    }
    it("is replaced when the database's rows are another portal's (no run to keep for)", async () => {
      const { connection } = await editedThenStaged([group(2, "b")]);
      await merged(connection, ["grp"], "full");
      expect(await groups(connection)).toEqual([
        [1, "a"],
        [2, "b"],
      ]);
    });
    it("full with a key staged twice (the careful merge): is kept", async () => {
      const { connection, runId } = await editedThenStaged([
        dated(1, "a", "2026-01-02T00:00:00Z"),
        group(2, "b"),
      ]);
      await merged(connection, ["grp"], "full", { keepAppliedDuring: runId });
      expect(await groups(connection)).toEqual([
        [1, "edited"],
        [2, "b"],
      ]);
    });
  });

  it("full mode: the table becomes exactly the staged set, latest copy of a key winning", async () => {
    const connection = await memory();
    await stage(connection, "grp", [group(1, "a"), group(2, "b"), group(3, "c")]);
    await merged(connection, ["grp"], "full");
    expect(await groups(connection)).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "c"],
    ]);

    await stage(connection, "grp", [group(2, "b-old"), group(3, "c")]);
    await stage(connection, "grp", [group(4, "d"), group(2, "b-new")]);
    const counts = await merged(connection, ["grp"], "full");
    expect(await groups(connection)).toEqual([
      [2, "b-new"],
      [3, "c"],
      [4, "d"],
    ]);
    expect(counts.grp).toBe(3);
    expect(counts.take).toBe(0);
    expect(Object.keys(counts).sort()).toEqual([...EXTRACTED].sort());
    expect(await count(connection, "_stage_grp")).toBe(0);
  });

  it("full mode with a repeated key in one resource: every resource right, beforeCommit once", async () => {
    const connection = await loadedGroupsAndTake();

    // grp is staged with distinct keys (swapped in), take with key 7 twice (the swap's primary
    // key refuses it, so the whole merge is redone the careful way).
    await stage(connection, "grp", [group(2, "b2"), group(3, "c")]);
    await stage(connection, "take", [
      { take_id: 7, take_score: 1 },
      { take_id: 8, take_score: 2 },
    ]);
    await stage(connection, "take", [{ take_id: 7, take_score: 3 }]);
    let commits = 0;
    const counts = await merged(connection, ["grp", "take"], "full", {
      beforeCommit: async () => {
        commits++;
      },
    });
    expect(commits).toBe(1);
    expect(await groups(connection)).toEqual([
      [2, "b2"],
      [3, "c"],
    ]);
    const takes = await connection.runAndReadAll(
      "SELECT take_id, take_score FROM take ORDER BY take_id",
    );
    expect(takes.getRows().map(([id, score]) => [Number(id), Number(score)])).toEqual([
      [7, 3],
      [8, 2],
    ]);
    expect(counts).toMatchObject({ grp: 2, take: 2 });
    expect(await count(connection, "_stage_take")).toBe(0);
    expect(await count(connection, "_stage_grp")).toBe(0);
    // The table keeps its primary key either way.
    await expect(
      connection.run("INSERT INTO take (take_id, take_score) VALUES (7, 0)"),
    ).rejects.toThrow(/constraint|duplicate/i);
  });

  it("full mode with nothing staged empties the table", async () => {
    const connection = await memory();
    await stage(connection, "grp", [group(1, "a")]);
    await merged(connection, ["grp"], "full");
    await merged(connection, ["grp"], "full");
    expect(await groups(connection)).toEqual([]);
  });

  it("incremental mode: inserts new keys, replaces staged ones, keeps the rest", async () => {
    const connection = await memory();
    await stage(connection, "grp", [group(1, "a"), group(2, "b"), group(3, "c")]);
    await merged(connection, ["grp"], "full");
    await stage(connection, "grp", [group(2, "b1"), group(5, "e"), group(2, "b2")]);
    const counts = await merged(connection, ["grp"], "incremental");
    expect(await groups(connection)).toEqual([
      [1, "a"],
      [2, "b2"],
      [3, "c"],
      [5, "e"],
    ]);
    expect(counts.grp).toBe(4);
    // Every column is replaced, not just the changed one, and dates stay UTC.
    const reader = await connection.runAndReadAll(
      "SELECT strftime(grp_updated_date, '%Y-%m-%d %H:%M:%S') FROM grp WHERE grp_id = 2",
    );
    expect(reader.getRows()).toEqual([["2026-01-01 23:00:00"]]);
  });

  it("merges several resources and leaves unlisted staging alone", async () => {
    const connection = await memory();
    await stage(connection, "grp", [group(1, "a")]);
    await stage(connection, "take", [{ take_id: 9, take_user_id: 1 }]);
    await stage(connection, "product", [{ product_id: 4 }]);
    const counts = await mergeStaging(connection, "memory", ["grp", "take", "grp"], "incremental");
    expect(counts.grp).toBe(1);
    expect(counts.take).toBe(1);
    expect(counts.product).toBe(0);
    // The merge leaves the staged rows; the end of a run deletes the side file.
    expect(await count(connection, "_stage_product")).toBe(1);
    expect(await count(connection, "_stage_grp")).toBe(1);
  });

  it("a failure in the second resource leaves every table exactly as before", async () => {
    const connection = await loadedGroupsAndTake();

    await stage(connection, "grp", [group(2, "changed"), group(3, "new")]);
    await stage(connection, "take", [{ take_id: 2, take_score: 7 }]);
    // A staged row without its key cannot enter the resource table: the merge of `take` fails
    // after `grp` was already merged inside the transaction.
    await connection.run("INSERT INTO _stage_take (take_id, _seq) VALUES (NULL, 100)");
    const before = await snapshot(connection);
    await expect(merged(connection, ["grp", "take"], "full")).rejects.toThrow(
      /NOT NULL|constraint/i,
    );
    expect(await snapshot(connection)).toEqual(before);
    expect(await groups(connection)).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
    // The connection is not left inside a transaction.
    await connection.run("BEGIN TRANSACTION");
    await connection.run("COMMIT");
  });

  it("beforeCommit runs inside the transaction: its writes commit with the data, its failure rolls all back", async () => {
    const connection = await memory();
    const runId = await startRun(connection, { mode: "full", since: null, options: {} });
    await stage(connection, "grp", [group(1, "a")]);
    const before = await snapshot(connection);
    await expect(
      merged(connection, ["grp"], "full", {
        beforeCommit: async (tx) => {
          expect(await groups(tx)).toEqual([[1, "a"]]);
          await finishRun(tx, runId, "succeeded");
          throw new Error("disk full");
        },
      }),
    ).rejects.toThrow("disk full");
    expect(await snapshot(connection)).toEqual(before);
    const status = async () =>
      (await connection.runAndReadAll("SELECT status FROM _runs")).getRows()[0]?.[0];
    expect(await status()).toBe("running");

    await merged(connection, ["grp"], "full", {
      beforeCommit: (tx) => finishRun(tx, runId, "succeeded"),
    });
    expect(await status()).toBe("succeeded");
    expect(await groups(connection)).toEqual([[1, "a"]]);
  });

  it("a process killed inside a big merge transaction leaves the previous data intact", async () => {
    const path = join(await tempDir(), "killed.duckdb");
    const db = await openDatabase(path);
    const { connection } = await withSideTables(await db.connect());
    await stage(
      connection,
      "grp",
      Array.from({ length: 200 }, (_, i) => group(i + 1, `g${i + 1}`)),
    );
    await stage(
      connection,
      "take",
      Array.from({ length: 1000 }, (_, i) => ({ take_id: i + 1, take_score: i % 100 })),
    );
    await merged(connection, EXTRACTED, "full");
    // More staged rows than one DuckDB row group (122,880), so the uncommitted merge writes
    // data blocks to the file before the kill.
    await connection.run(
      `INSERT INTO _stage_take (take_id, take_user_id, take_status, take_created_date, _seq)
       SELECT i, i % 5000, 'staged', TIMESTAMP '2026-01-01' + to_seconds(i), i FROM range(1, 150001) r(i)`,
    );
    await stage(connection, "grp", [group(1, "renamed"), group(999, "new")]);
    const before = await snapshot(connection);
    db.close();

    const child = spawnHelper("merge-then-hang.ts", [path]);
    try {
      await waitForLine(child, "before-commit");
    } finally {
      await kill(child, "SIGKILL");
    }

    const reopened = await openDatabase(path);
    try {
      const after = await reopened.connect();
      expect(await snapshot(after)).toEqual(before);
      expect(await count(after, "take")).toBe(1000);
      expect(await count(after, "_stage_take")).toBe(150_000);
      // The staged data is still there, so the merge can simply be run again.
      const counts = await mergeStaging(after, "killed", EXTRACTED, "full");
      expect(counts.take).toBe(150_000);
      expect(counts.grp).toBe(2);
    } finally {
      reopened.close();
    }
  });
});
