/**
 * A schedule killed with SIGKILL (or crashed) cannot pass a stop on to its run: the run must
 * notice that its schedule is gone and stop as on SIGTERM, so that a restarted schedule never
 * starts a second run beside it. The built CLI (dist/) against a slow simulated portal over HTTP.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import type { RunningSimulator } from "../../src/simulator/server.js";
import { builtCli } from "../helpers/built-cli.js";
import { collect } from "../helpers/spawn-cli.js";
import { expectTablesEqualPortal } from "../helpers/table-snapshot.js";
import {
  childrenOf,
  hasEnded,
  slowPortal,
  spawnRunNowSchedule,
  tempFolder,
  waitFor,
  watchChild,
} from "./schedule-helpers.js";

const tmp = tempFolder();
let portal: { sim: RunningSimulator; env: NodeJS.ProcessEnv } | undefined;
/** The schedule's run, ended after the test if it outlived it (when the test failed). */
let runPid: number | undefined;
beforeAll(async () => {
  portal = await slowPortal("orphan-key", tmp);
});
afterAll(async () => {
  if (runPid !== undefined && !hasEnded(runPid)) process.kill(runPid, "SIGKILL");
  await portal?.sim.close();
  tmp.remove();
});

it("a run whose schedule was killed with SIGKILL stops, and the next extract completes", async () => {
  const runArgs = ["extract", "--db", "lms.duckdb", "--concurrency", "2"];
  const schedule = spawnRunNowSchedule(tmp.dir, portal?.env ?? {}, runArgs);
  const { seen, events } = watchChild(schedule);
  const schedulePid = schedule.pid ?? 0;

  // The run is under way once its first resource is in.
  await waitFor("the run's first resource", () => events().some((e) => e.msg === "extracted grp"));
  runPid = childrenOf(schedulePid)[0];
  expect(runPid, seen.stderr).toBeDefined();
  schedule.kill("SIGKILL");

  // No timed assertion: a generous deadline only keeps a broken fix from hanging the suite.
  await waitFor("the run to end", () => hasEnded(runPid as number), 45_000);
  // The run held the schedule's stderr: it is closed once the run has ended and said its last.
  await waitFor("the run's output to close", () => seen.closed, 45_000);
  expect(seen.stderr).toContain("the schedule that started this run is gone");
  expect(seen.stderr).toContain("extract interrupted; the new database holds no records yet");
  expect(events().some((e) => e.msg === "extracted take")).toBe(false);

  // The database is left for the next run, which completes and holds what the portal holds.
  const next = await collect(
    builtCli(["extract", "--db", "lms.duckdb"], tmp.dir, {
      LMS_BASE_URL: portal?.sim.baseUrl ?? "",
      LMS_API_KEY_FILE: tmp.path("key"),
    }),
  );
  expect(next.code, next.stderr).toBe(0);
  const db = await openDatabase(tmp.path("lms.duckdb"), { readOnly: true });
  try {
    await expectTablesEqualPortal(await db.connect(), portal?.sim.data as RunningSimulator["data"]);
  } finally {
    db.close();
  }
}, 120_000);
