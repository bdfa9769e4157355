/**
 * A `--since` run does not move the cursor of the next `--incremental` run: it listed the changes
 * after its own day, not those after the last run, so a group edited between the last run and that
 * day was read by neither, and the incremental runs after it skipped it for good. And a `--since`
 * in the future (a mistyped year) is refused: it would list nothing and succeed. And the portal
 * writes its dates to the second while a run starts part-way through one: a record changed in the
 * second the last run began, after that run had listed it, is dated before the run's start, and the
 * next incremental run still reads it, whatever its look-back (even `--lookback 0`). Real HTTP to
 * the simulator, a real DuckDB file.
 */
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { silentLogger } from "../../src/log/logger.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { readRows } from "../helpers/read-rows.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "since-cursor-key-7d02";
const dir = tempDirForFile("lms-since-cursor-");
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 40, takesPerUser: 2, seed: 5 });
});
afterAll(async () => {
  await sim.close();
});

// The portal writes dates to the second: a step a second apart is after the one before it.
const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("an incremental run after a --since run still reads what changed before that day", async () => {
  const db = join(dir, "cursor.duckdb");
  const run = (options: { mode: "full" | "incremental"; since?: Date }) =>
    runExtract({
      db,
      clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 4 },
      lookbackMs: 0,
      logger: silentLogger,
      ...options,
    });
  await run({ mode: "full" });
  const [group] = sim.data.list("grp");
  const id = Number(group?.grp_id);
  await until(1100);
  sim.data.edit("grp", id, { grp_description: "edited after the full run" });
  await until(1100);
  // From a moment after the edit: this run does not list the group.
  await run({ mode: "incremental", since: new Date() });
  const description = `SELECT grp_description FROM grp WHERE grp_id = ${id}`;
  expect(await readRows(db, description)).not.toEqual([["edited after the full run"]]);
  await run({ mode: "incremental" });
  expect(await readRows(db, description)).toEqual([["edited after the full run"]]);
});

/** Runs of database `db` without a look-back (of `only`, when given). */
function runsOf(db: string, only?: string[]) {
  return (mode: "full" | "incremental") =>
    runExtract({
      db,
      clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 4 },
      lookbackMs: 0,
      ...(only ? { only } : {}),
      logger: silentLogger,
      mode,
    });
}

it("an incremental run moves the next one's cursor to its own start", async () => {
  // Each incremental run read from the last full run's start, never its own predecessor's: the
  // window grew with every run until the next full one.
  const db = join(dir, "moving.duckdb");
  const run = runsOf(db);
  await run("full");
  await run("incremental");
  await run("incremental");
  const runs = await readRows(
    db,
    "SELECT run_id::INTEGER, started_at, since FROM _runs ORDER BY 1",
  );
  expect(runs.map((row) => row[2])).toEqual([null, runs[0]?.[1], runs[1]?.[1]]);
});

it("refuses a --since in the future before anything runs", async () => {
  const result = await runInProcess(["extract", "--since", "2036-01-01", "--db", "x.duckdb"], dir, {
    LMS_BASE_URL: sim.baseUrl,
    LMS_API_KEY: KEY,
  });
  expect(result.code).toBe(2);
  expect(result.stderr).toBe(
    "lms-export: --since: 2036-01-01 is in the future, so nothing would be listed; give a past day or time\n",
  );
});

/** Runs one statement on a DuckDB file, closing it at once. */
async function onFile(path: string, sql: string): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    await connection.run(sql);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

it("an incremental run reads a record changed in the second the last run began, after it was listed", async () => {
  const db = join(dir, "same-second.duckdb");
  const run = runsOf(db, ["grp"]);
  await run("full");
  const [group] = sim.data.list("grp");
  const id = Number(group?.grp_id);
  const edited = sim.data.edit("grp", id, { grp_description: "edited as the run began" });
  // The full run began 0.6 s into the second the portal dates the edit with: it had listed the
  // group by the time the edit was made, later in that second.
  const second = Math.floor(Date.parse(String(edited.grp_updated_date)) / 1000) * 1000;
  const began = new Date(second + 600).toISOString();
  await onFile(db, `UPDATE _runs SET started_at = TIMESTAMP '${began.replace("Z", "")}'`);
  await run("incremental");
  const description = `SELECT grp_description FROM grp WHERE grp_id = ${id}`;
  expect(await readRows(db, description)).toEqual([["edited as the run began"]]);
});
