/**
 * An extract killed with SIGKILL stays `running` in `_runs` until another extract starts; a
 * report read meanwhile says so, naming the run and the resume command, and says nothing while
 * the run's process is alive or once the run was resumed. Real child processes, a real simulated
 * portal slowed down so the run is caught in the middle, a real DuckDB file.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentProcess, processEnded } from "../../src/load/run-process.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { collect, runCli, spawnCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-stopped-run-");
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ users: 40, takesPerUser: 2, faults: { latencyMs: 40 } });
});
afterAll(async () => {
  await sim.close();
});

const env = { LMS_API_KEY: "demo-key", LMS_LOG_FORMAT: "json" };
const WARNING = /extract run 1 is recorded as running, but its process \(PID (\d+)\) has ended/;

describe("a report after an extract was killed", () => {
  it("warns of the run left running only once its process has ended", async () => {
    const db = join(dir, "killed.duckdb");
    const flags = ["--base-url", sim.baseUrl, "--db", db, "--concurrency", "1", "--page-size", "5"];
    const freshness = ["report", "data-freshness", "--db", db, "--format", "csv", "--wait", "60"];
    const child = spawnCli(["extract", ...flags], { env });
    const done = collect(child);
    // Well into the run: its row in _runs is written before its first list request. Held there
    // (answers wait ten minutes), so that it cannot end on its own while a loaded machine runs the
    // report below, which would leave nothing to kill.
    while (sim.stats.requests < 30) await new Promise((resolve) => setTimeout(resolve, 20));
    sim.faults.latencyMs = 600_000;
    const alive = await runCli([...freshness, "--out", join(dir, "alive")], { env, cwd: dir });
    expect(alive.code, alive.stderr).toBe(0);
    expect(alive.stderr).not.toMatch(WARNING);

    child.kill("SIGKILL");
    await done;
    const killed = await runCli([...freshness, "--out", join(dir, "killed")], { env, cwd: dir });
    expect(killed.code, killed.stderr).toBe(0);
    expect(WARNING.exec(killed.stderr)?.[1]).toBe(String(child.pid));
    expect(killed.stderr).toContain("lms-export extract --resume");

    sim.faults.latencyMs = 40;
    const resumed = await runCli(["extract", ...flags, "--resume"], { env, cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = await runCli([...freshness, "--out", join(dir, "after")], { env, cwd: dir });
    expect(after.stderr).not.toMatch(WARNING);
  }, 180_000);
});

describe("processEnded", () => {
  it("tells this process from an ended one, a reused id and another host's", () => {
    const me = currentProcess();
    expect(processEnded(me)).toBe(false);
    // The same id with another start time: the id was reused by a later process.
    expect(processEnded({ ...me, startedMs: me.startedMs - 86_400_000 })).toBe(true);
    // Linux gives no process an id past 2^22.
    expect(processEnded({ ...me, pid: 2 ** 22 + 1 })).toBe(true);
    expect(processEnded({ ...me, pid: 2 ** 22 + 1, host: `not-${me.host}` })).toBe(false);
  });
});
