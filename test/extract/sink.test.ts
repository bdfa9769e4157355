/**
 * The staging sink commits a unit's rows, its rejects and its checkpoint marks in one transaction:
 * a run that dies before a commit leaves none of them, so a resumed run refetches the unit and
 * records each reject once.
 */
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { expect, it } from "vitest";
import { StagingSink } from "../../src/extract/sink.js";
import { openDatabase } from "../../src/load/database.js";
import { startRun } from "../../src/load/runs.js";
import { tempDir } from "../helpers/temp-dir.js";
import { withSideTables } from "../load/helpers/memory-db.js";

const group = (id: number) => ({
  grp_id: id,
  grp_name: `Group ${id}`,
  grp_created_date: "2026-01-01T00:00:00Z",
  grp_updated_date: "2026-01-02T00:00:00Z",
});

/** Three slices and a bit; the first record cannot be typed. */
const records = [
  { grp_id: 99_999, grp_name: "bad", grp_created_date: "not a date", grp_updated_date: "x" },
  ...Array.from({ length: 3 * 2_048 + 10 }, (_, i) => group(i + 1)),
];

async function counts(connection: DuckDBConnection): Promise<number[]> {
  const reader = await connection.runAndReadAll(
    "SELECT (SELECT count(*) FROM _stage_grp), (SELECT count(*) FROM _rejects), (SELECT count(*) FROM _checkpoint)",
  );
  return (reader.getRows()[0] ?? []).map(Number);
}

it("rows, rejects and checkpoint marks of uncommitted work vanish together, then land once", async () => {
  const db = await openDatabase(join(await tempDir(), "sink.duckdb"));
  const { connection: main } = await withSideTables(await db.connect());
  const runId = await startRun(main, { mode: "full", since: null, options: {} });
  const open = async (connection: DuckDBConnection) =>
    StagingSink.open({
      connection,
      runId,
      resource: "grp",
      batchRows: 1_000_000,
      maxDelayMs: 60_000,
    });

  // The first attempt writes three slices into its transaction, then dies before committing.
  const doomed = await db.connect();
  await (await open(doomed)).add(records, { kind: "page", keys: ["0"] });
  // Inside its transaction the reject is already written.
  const inside = await doomed.runAndReadAll("SELECT count(*) FROM _rejects");
  expect(inside.getRows()).toEqual([[1n]]);
  doomed.closeSync();
  expect(await counts(main)).toEqual([0, 0, 0]);

  // The resumed attempt fetches the unit again: everything lands, each reject once.
  const sink = await open(await db.connect());
  await sink.add(records, { kind: "page", keys: ["0"] });
  const totals = await sink.finish();
  expect(totals).toEqual({ records: records.length - 1, rejects: 1 });
  expect(await counts(main)).toEqual([records.length - 1, 1, 1]);
  db.close();
});

it("a dropped key takes its untyped copy out of _rejects too, which a full merge would keep", async () => {
  // The re-read of a list that moved found these records gone: neither copy may be stored, and a
  // key left in _rejects keeps the stored row of that key in a full merge.
  const db = await openDatabase(join(await tempDir(), "sink-drop.duckdb"));
  const { connection: main } = await withSideTables(await db.connect());
  const runId = await startRun(main, { mode: "full", since: null, options: {} });
  const sink = await StagingSink.open({
    connection: await db.connect(),
    runId,
    resource: "grp",
    batchRows: 1_000_000,
    maxDelayMs: 60_000,
  });
  await sink.add(records.slice(0, 11));
  await sink.drop([99_999, 3]);
  await sink.add([], { kind: "page", keys: ["0"] });
  await sink.finish();
  const left = await main.runAndReadAll(
    "SELECT (SELECT string_agg(grp_id::VARCHAR, ',' ORDER BY grp_id) FROM _stage_grp), (SELECT count(*) FROM _rejects)",
  );
  expect(left.getRows()).toEqual([["1,2,4,5,6,7,8,9,10", 0n]]);
  db.close();
});
