/**
 * `--since` on a database that never loaded the portal: nothing is there for the cursor to add
 * to, so every resource is listed whole, as `--incremental` does, instead of the run keeping only
 * what changed after the date and the takes of the people it happened to name. Real HTTP to the
 * simulator, a real DuckDB file.
 */
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { expectTablesEqualPortal } from "../helpers/table-snapshot.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "since-first-key-41ab";
const NOW = new Date("2026-01-15T00:00:00Z");
const dir = tempDirForFile("lms-since-first-");
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 60, takesPerUser: 4, now: NOW, seed: 17 });
});
afterAll(async () => {
  await sim.close();
});

it("--since on a new database lists every resource whole and ends with the portal's records", async () => {
  const path = join(dir, "since.duckdb");
  const lines: string[] = [];
  const since = new Date("2026-01-10T00:00:00Z");
  // The portal has takes updated before the date, which a cursor would leave out.
  const older = sim.data
    .list("take")
    .filter((t) => Date.parse(String(t.take_updated_date)) <= since.getTime());
  expect(older.length).toBeGreaterThan(0);
  const result = await runExtract({
    db: path,
    clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 4, pageSize: 50 },
    mode: "incremental",
    since,
    logger: recordingLogger(lines),
  });
  expect(result.mode).toBe("full");
  expect(lines).toContain("info no earlier successful run to continue from: doing a full extract");
  const db = await openDatabase(path, { readOnly: true });
  try {
    const connection = await db.connect();
    await expectTablesEqualPortal(connection, sim.data);
    connection.closeSync();
  } finally {
    db.close();
  }
  expect(await readRows(path, "SELECT mode, since FROM _runs")).toEqual([["full", null]]);
});
