import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { collect, runCli, spawnCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "resume-pace-key-4b17";
const NOW = new Date("2026-06-01T00:00:00Z");

const dir = tempDirForFile("lms-resume-pace-");

/** A portal serving 4 at once and queueing 8: `auto` climbing from 2 meets its 429s early. */
function busyPortal(): Promise<RunningSimulator> {
  const size = { users: 2000, takesPerUser: 2, now: NOW, seed: 5 };
  return startSimulator({ apiKey: KEY, ...size, capacity: 4, faults: { latencyMs: 20 } });
}

/** The arguments of an extract of `sim` into `name`. */
async function extractArgs(sim: RunningSimulator, name: string): Promise<string[]> {
  const keyFile = join(dir, "key");
  await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
  const db = join(dir, name);
  const args = ["extract", "--base-url", sim.baseUrl, "--api-key-file", keyFile, "--db", db];
  return [...args, "--max-concurrency", "64", "--page-size", "50", "--log-format", "json"];
}

/**
 * Runs the extract and kills it with SIGKILL once the portal refused it and then answered 300
 * more requests without a refusal: 1.5 s at least at 200 a second at most, so its commits (one
 * a second at least) saved the count since. Answers the refusals of the killed attempt.
 */
async function killedAfterRefusals(sim: RunningSimulator, args: string[]): Promise<number> {
  const child = spawnCli(args);
  const done = collect(child);
  let refused = 0;
  let quietFrom = 0;
  while (child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = sim.capacity?.refused ?? 0;
    if (now !== refused) [refused, quietFrom] = [now, sim.stats.requests];
    if (refused > 0 && sim.stats.requests - quietFrom >= 300) break;
  }
  child.kill("SIGKILL");
  const killed = await done;
  expect(killed.code, `not killed: ${killed.stderr}`).toBeNull();
  expect(refused).toBeGreaterThan(0);
  return refused;
}

const PACE = "SELECT run_id, status, overload_answers, concurrency_min, concurrency_max FROM _runs";

describe("extract --resume after kill -9: the pace of the whole run", () => {
  it("_runs counts the overload answers of the killed attempt too, and its range", async () => {
    const sim = await busyPortal();
    const args = await extractArgs(sim, "resumed.duckdb");
    try {
      await killedAfterRefusals(sim, args);
      const resumed = await runCli([...args, "--resume"]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain("resuming run 1");
      const [run, ...others] = await readRows(args[6] ?? "", PACE);
      expect(others).toEqual([]);
      // Both attempts' refusals: the portal's count over the whole run.
      expect(run?.slice(0, 3)).toEqual([1n, "succeeded", BigInt(sim.capacity?.refused ?? -1)]);
      // Refused, the killed attempt had more than the 12 the portal takes in flight.
      expect(Number(run?.[4])).toBeGreaterThan(12);
      expect(Number(run?.[3])).toBeGreaterThanOrEqual(1);
    } finally {
      await sim.close();
    }
  }, 120_000);

  it("a killed run a new run supersedes keeps the pace it saved", async () => {
    const sim = await busyPortal();
    const args = await extractArgs(sim, "superseded.duckdb");
    try {
      const refused = await killedAfterRefusals(sim, args);
      const next = await runCli(args);
      expect(next.code, next.stderr).toBe(0);
      const [killed, run] = await readRows(args[6] ?? "", `${PACE} ORDER BY run_id`);
      expect(killed?.slice(0, 3)).toEqual([1n, "failed", BigInt(refused)]);
      expect(Number(killed?.[4])).toBeGreaterThan(12);
      expect(run?.slice(0, 3)).toEqual([
        2n,
        "succeeded",
        BigInt(sim.capacity?.refused ?? 0) - BigInt(refused),
      ]);
    } finally {
      await sim.close();
    }
  }, 120_000);
});
