/**
 * A `--since` run does not move the cursor of the next `--incremental` run: it listed the changes
 * after its own day, not those after the last run, so a group edited between the last run and that
 * day was read by neither, and the incremental runs after it skipped it for good. And a `--since`
 * in the future (a mistyped year) is refused: it would list nothing and succeed. Real HTTP to the
 * simulator, a real DuckDB file.
 */
import { join } from "node:path";
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

it("an incremental run moves the next one's cursor to its own start", async () => {
  // Each incremental run read from the last full run's start, never its own predecessor's: the
  // window grew with every run until the next full one.
  const db = join(dir, "moving.duckdb");
  const run = (mode: "full" | "incremental") =>
    runExtract({
      db,
      clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 4 },
      lookbackMs: 0,
      logger: silentLogger,
      mode,
    });
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
