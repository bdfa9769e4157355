/**
 * A full merge keeps a link `apply` created during the run that the run listed before it existed,
 * and that the portal answered; it is no record gone from the portal. The usual merge replaces
 * the table (test/extract/created-during-run.test.ts shows it end to end); a key staged twice
 * (a resumed run, records re-read after offset drift) takes the careful merge instead, deleting
 * what was not staged and upserting the rest, which must keep the same links.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { expect, it } from "vitest";
import { toRecordBatch } from "../../src/encode/to-record-batch.js";
import { stagingWriter } from "../../src/load/append-batch.js";
import { mergeStaging } from "../../src/load/merge.js";
import { startRun } from "../../src/load/runs.js";
import { clearSide } from "../../src/load/side-file.js";
import { memory, withSideTables } from "./helpers/memory-db.js";

const link = (id: number, user: number) => ({
  user_grp_id: id,
  user_grp_grp_id: 10,
  user_grp_user_id: user,
  user_grp_group_admin: 0,
});

async function stage(connection: DuckDBConnection, records: unknown[]): Promise<void> {
  const { batch, rejects } = toRecordBatch("user_grp", records);
  expect(rejects).toEqual([]);
  const writer = await stagingWriter(connection, "user_grp");
  if (batch) await writer.append(batch);
  await writer.close();
}

async function mergedFull(connection: DuckDBConnection, runId?: number): Promise<number[]> {
  const { side } = await withSideTables(connection);
  await mergeStaging(
    connection,
    side,
    ["user_grp"],
    "full",
    runId === undefined ? {} : { keepAppliedDuring: runId },
  );
  await clearSide(connection);
  const reader = await connection.runAndReadAll("SELECT user_grp_id FROM user_grp ORDER BY 1");
  return reader.getRows().map(([id]) => Number(id));
}

/** A change of `apply` recorded at 12:30, in a run begun at 12:00. */
const change = (id: number, outcome: string, answered: boolean | null) =>
  `INSERT INTO _changes VALUES ('set', 'links.csv', ${id}, 'user_grp.create', ${id}, NULL, NULL, '${outcome}', NULL, TIMESTAMP '2026-02-01 12:30:00', ${answered})`;

for (const twice of [false, true]) {
  it(`${twice ? "a key staged twice (the careful merge)" : "distinct keys (the table replaced)"}: a link the portal answered a create for during the run is kept`, async () => {
    const connection = await memory();
    await stage(connection, [link(1, 100), link(2, 101)]);
    expect(await mergedFull(connection)).toEqual([1, 2]);
    const runId = await startRun(connection, {
      mode: "full",
      since: null,
      options: {},
      startedAt: new Date("2026-02-01T12:00:00Z"),
    });
    // apply made 3, found 4 already in the portal, and found 5 unchanged in the database alone
    // (nothing sent: the portal may not hold it); 2 was deleted in the portal.
    await connection.run(
      "INSERT INTO user_grp (user_grp_id, user_grp_grp_id, user_grp_user_id, user_grp_group_admin) VALUES (3, 10, 102, 0), (4, 10, 103, 0), (5, 10, 104, 0)",
    );
    await connection.run(change(3, "applied", true));
    await connection.run(change(4, "unchanged", true));
    await connection.run(change(5, "unchanged", false));
    await stage(connection, twice ? [link(1, 100), link(1, 100)] : [link(1, 100)]);
    expect(await mergedFull(connection, runId)).toEqual([1, 3, 4]);
  });
}
