/**
 * A full extract of the same portal leaves a group the database holds in a later version than the
 * portal listed when `apply` wrote it while the extract was paging (the copy the extract staged
 * is the older one), and otherwise takes the portal's copy. Real HTTP to the simulator, a real
 * DuckDB file; the later version and its `_changes` row are written into the database by hand,
 * standing in for apply's, so that the moment does not have to be caught.
 */
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { silentLogger } from "../../src/log/logger.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "later-local-key-51c9";
const dir = tempDirForFile("lms-later-local-");
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 20, takesPerUser: 1, seed: 3 });
});
afterAll(async () => {
  await sim.close();
});

const run = (db: string) =>
  runExtract({
    db,
    clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 4 },
    mode: "full",
    logger: silentLogger,
  });

/**
 * Group `id` given a later version in the database, as `apply` writes one; `appliedAt`, the time
 * `_changes` records for that apply (none when null).
 */
async function editedInDatabase(db: string, id: unknown, appliedAt: string | null) {
  const instance = await DuckDBInstance.create(db);
  const connection = await instance.connect();
  await connection.run(
    `UPDATE grp SET grp_description = 'edited by apply', grp_updated_date = grp_updated_date + INTERVAL 1 DAY WHERE grp_id = ${id}`,
  );
  if (appliedAt !== null) {
    await connection.run(
      `INSERT INTO _changes VALUES ('set', 'groups.csv', 2, 'grp.edit', ${id}, NULL, NULL, 'applied', NULL, TIMESTAMP '${appliedAt}', true)`,
    );
  }
  connection.closeSync();
  instance.closeSync();
}

const described = (db: string, ids: unknown[]) =>
  readRows(
    db,
    `SELECT grp_id::INTEGER, grp_description FROM grp WHERE grp_id IN (${ids.join(", ")}) ORDER BY grp_id`,
  );

it("a full run of the same portal keeps the later version apply wrote during it; the portal's other records are as listed", async () => {
  const db = join(dir, "later.duckdb");
  await run(db);
  const [first, second] = sim.data.list("grp");
  // Recorded after the next run begins, as an apply made while it pages is.
  await editedInDatabase(db, first?.grp_id, "2999-01-01 00:00:00");
  await run(db);
  expect(await described(db, [first?.grp_id, second?.grp_id])).toEqual([
    [first?.grp_id, "edited by apply"],
    [second?.grp_id, second?.grp_description ?? null],
  ]);
});

it("a later version no apply wrote during the run (a portal restored from a backup) is replaced by the portal's", async () => {
  const db = join(dir, "restored.duckdb");
  await run(db);
  const [first, second] = sim.data.list("grp");
  await editedInDatabase(db, first?.grp_id, null);
  await editedInDatabase(db, second?.grp_id, "2000-01-01 00:00:00");
  await run(db);
  expect(await described(db, [first?.grp_id, second?.grp_id])).toEqual([
    [first?.grp_id, first?.grp_description ?? null],
    [second?.grp_id, second?.grp_description ?? null],
  ]);
});
