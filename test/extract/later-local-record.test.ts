/**
 * A full extract of the same portal leaves a group the database holds in a later version than the
 * portal listed, as `apply` leaves one it edited while the extract was paging (the copy the
 * extract staged is the older one). Real HTTP to the simulator, a real DuckDB file; the later
 * version is written into the database by hand, standing in for apply's, so that the moment
 * does not have to be caught.
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

it("a full run of the same portal keeps the later version; the portal's other records are as listed", async () => {
  const db = join(dir, "later.duckdb");
  const run = () =>
    runExtract({
      db,
      clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 4 },
      mode: "full",
      logger: silentLogger,
    });
  await run();
  const [first, second] = sim.data.list("grp");
  const instance = await DuckDBInstance.create(db);
  const connection = await instance.connect();
  await connection.run(
    `UPDATE grp SET grp_description = 'edited by apply', grp_updated_date = grp_updated_date + INTERVAL 1 DAY WHERE grp_id = ${first?.grp_id}`,
  );
  connection.closeSync();
  instance.closeSync();
  await run();
  expect(
    await readRows(
      db,
      `SELECT grp_id::INTEGER, grp_description FROM grp WHERE grp_id IN (${first?.grp_id}, ${second?.grp_id}) ORDER BY grp_id`,
    ),
  ).toEqual([
    [first?.grp_id, "edited by apply"],
    [second?.grp_id, second?.grp_description ?? null],
  ]);
});
