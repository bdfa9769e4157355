/**
 * Users' takes are held until each user's listing ends, and staged then with the user's done mark;
 * the users read side by side hold at most 10,000 takes between them, and a user whose page would
 * pass that has its takes staged as they come, under a `started` mark committed with the first of
 * them. A real DuckDB file for the side tables; the takes are the simulator's records.
 */
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { expect, it } from "vitest";
import { ListingTally } from "../../src/extract/listing-tally.js";
import { HOLD_ROWS, HoldBudget, ParentChildren } from "../../src/extract/parent-children.js";
import { StagingSink } from "../../src/extract/sink.js";
import { openDatabase } from "../../src/load/database.js";
import { startRun } from "../../src/load/runs.js";
import { silentLogger } from "../../src/log/logger.js";
import { createSimulatorData } from "../../src/simulator/data.js";
import { tempDir } from "../helpers/temp-dir.js";
import { withSideTables } from "../load/helpers/memory-db.js";

async function staged(connection: DuckDBConnection): Promise<unknown[]> {
  const reader = await connection.runAndReadAll(
    `SELECT (SELECT count(*) FROM _stage_take),
            (SELECT string_agg(kind || ' ' || key, ',' ORDER BY kind, key) FROM _checkpoint)`,
  );
  return reader.getRows()[0] ?? [];
}

/** Adds `takes` to `listing` in pages of 1,000. */
async function addPaged(listing: ParentChildren, takes: readonly unknown[]): Promise<void> {
  for (let start = 0; start < takes.length; start += 1_000) {
    await listing.add(takes.slice(start, start + 1_000));
  }
}

it("users read side by side hold at most the bound between them; the one that would pass it is staged as it comes", async () => {
  const data = createSimulatorData({
    users: 3,
    takesPerUser: 4_000,
    seed: 48,
    now: new Date("2026-06-01T00:00:00Z"),
    deletedProducts: 1,
  });
  const [big, small, middle] = data.userIds() as [number, number, number];
  const takesOf = (user: number) => data.takesForUser(user);
  expect([big, small, middle].map((user) => takesOf(user).length)).toEqual([7_339, 2_507, 5_169]);
  const db = await openDatabase(join(await tempDir(), "held.duckdb"));
  const { connection } = await withSideTables(await db.connect());
  const runId = await startRun(connection, { mode: "full", since: null, options: {} });
  const sink = await StagingSink.open({
    connection: await db.connect(),
    runId,
    resource: "take",
    batchRows: 1_000_000,
    maxDelayMs: 60_000,
  });
  const budget = new HoldBudget();
  const lines: string[] = [];
  const logger = { ...silentLogger, info: (line: string) => lines.push(line) };
  const tally = () => new ListingTally("take", { logger, countRequests() {} });
  const label = (user: number) => `take: the records listed for take_user_id ${user}`;
  const listing = (id: number) =>
    new ParentChildren(
      sink,
      budget,
      tally(),
      {
        id,
        done: "parent",
        primaryKey: "take_id",
        label: label(id),
      },
      logger,
    );
  const [first, second, third] = [listing(small), listing(middle), listing(big)];
  // 2,507 and 5,169 takes held; the third user's third page would make 10,676.
  await addPaged(first, takesOf(small));
  await addPaged(second, takesOf(middle));
  await addPaged(third, takesOf(big).slice(0, 2_000));
  await sink.flush();
  expect(await staged(connection)).toEqual([0n, null]);
  await addPaged(third, takesOf(big).slice(2_000));
  await sink.flush();
  expect(await staged(connection)).toEqual([7_339n, `started ${big}`]);
  expect(lines).toEqual([
    `${label(big)} are staged as they come, as holding them until the listing ends would pass ${HOLD_ROWS} records held at once (said once a run; so are others' past it)`,
  ]);
  // A second user past the bound (2,324 left) is staged as it comes too, and not said again.
  const fourth = listing(big + 1_000);
  await fourth.add(takesOf(middle).slice(0, 3_000));
  await fourth.end();
  expect(lines).toHaveLength(1);
  // The held users are staged with their done marks when their listings end, and what they held
  // is free again.
  for (const ended of [third, first, second]) await ended.end();
  await sink.finish();
  const marks = [
    `parent ${big}`,
    `parent ${middle}`,
    `parent ${small}`,
    `parent ${big + 1_000}`,
    `started ${big}`,
    `started ${big + 1_000}`,
  ];
  expect(await staged(connection)).toEqual([18_015n, marks.sort().join(",")]);
  expect(budget.reserve(HOLD_ROWS)).toBe(true);
  db.close();
});
