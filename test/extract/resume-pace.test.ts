import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { collect, runCli, spawnCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "resume-pace-key-4b17";
const NOW = new Date("2026-06-01T00:00:00Z");

const dir = tempDirForFile("lms-resume-pace-");

describe("extract --resume after kill -9: the pace of the whole run", () => {
  it("_runs counts the overload answers of the killed attempt too, and its range", async () => {
    // A portal serving 4 at once and queueing 8: `auto` climbing from 2 meets its 429s early.
    const sim = await startSimulator({
      apiKey: KEY,
      users: 1500,
      takesPerUser: 2,
      now: NOW,
      seed: 5,
      capacity: 4,
      faults: { latencyMs: 20 },
    });
    const keyFile = join(dir, "key");
    await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
    const db = join(dir, "killed.duckdb");
    const args = ["extract", "--base-url", sim.baseUrl, "--api-key-file", keyFile, "--db", db];
    args.push("--max-concurrency", "64", "--page-size", "50", "--log-format", "json");
    try {
      const child = spawnCli(args);
      const done = collect(child);
      // Killed once it was refused and then answered 600 more requests without a refusal: at
      // most 200 a second here, so its commits (at least one a second) saved the count since.
      let refused = 0;
      let quietFrom = 0;
      while (child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const now = sim.capacity?.refused ?? 0;
        if (now !== refused) [refused, quietFrom] = [now, sim.stats.requests];
        if (refused > 0 && sim.stats.requests - quietFrom >= 600) break;
      }
      child.kill("SIGKILL");
      const killed = await done;
      expect(killed.code, `not killed: ${killed.stderr}`).toBeNull();
      expect(refused).toBeGreaterThan(0);

      const resumed = await runCli([...args, "--resume"]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain("resuming run 1");
      const [run, ...others] = await readRows(
        db,
        "SELECT run_id, status, overload_answers, concurrency_min, concurrency_max FROM _runs",
      );
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
});
