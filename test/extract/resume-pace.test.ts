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

/**
 * A portal serving 1 at once and queueing 2: `auto`, at 4 after its first probe at 2, meets a 429
 * at once.
 */
function busyPortal(): Promise<RunningSimulator> {
  const size = { users: 1000, takesPerUser: 2, now: NOW, seed: 5 };
  return startSimulator({ apiKey: KEY, ...size, capacity: 1, faults: { latencyMs: 5 } });
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
 * Runs the extract and kills it with SIGKILL once the portal answered 300 requests after its
 * first refusal: 1.5 s at least at 200 a second at most, so a commit (one a second at least)
 * saved a count with that refusal in it; refusals after the last commit are lost with the
 * process. Answers the refusals of the killed attempt.
 */
async function killedAfterRefusals(sim: RunningSimulator, args: string[]): Promise<number> {
  const child = spawnCli(args);
  const done = collect(child);
  let first: number | undefined;
  while (child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (first === undefined && (sim.capacity?.refused ?? 0) > 0) first = sim.stats.requests;
    if (first !== undefined && sim.stats.requests - first >= 300) break;
  }
  child.kill("SIGKILL");
  const killed = await done;
  expect(killed.code, `not killed: ${killed.stderr}`).toBeNull();
  const refused = sim.capacity?.refused ?? 0;
  expect(refused).toBeGreaterThan(0);
  return refused;
}

/** The figures of the summary's line "requests in flight 1 to 9, 4 at the end, 12 too-busy …". */
function printedPace(stdout: string): Record<string, number> {
  const line = stdout.split("\n").find((l) => l.includes("requests in flight")) ?? "";
  const figures = /in flight (\d+)(?: to (\d+), (\d+) at the end)?, (\d+) too-busy/.exec(line);
  expect(figures, stdout).not.toBeNull();
  const [min, max, final, overloads] = (figures ?? []).slice(1).map(Number);
  return {
    min: min ?? 0,
    max: max ?? min ?? 0,
    final: final ?? min ?? 0,
    overloads: overloads ?? 0,
  };
}

const PACE = "SELECT run_id, status, overload_answers, concurrency_min, concurrency_max FROM _runs";

describe("extract --resume after kill -9: the pace of the whole run", () => {
  it("_runs counts the overload answers of the killed attempt too, and its range", async () => {
    const sim = await busyPortal();
    const args = await extractArgs(sim, "resumed.duckdb");
    try {
      const killed = await killedAfterRefusals(sim, args);
      const resumed = await runCli([...args, "--resume"]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain("resuming run 1");
      const [run, ...others] = await readRows(args[6] ?? "", PACE);
      expect(others).toEqual([]);
      expect(run?.slice(0, 2)).toEqual([1n, "succeeded"]);
      // The resumed attempt's refusals and the killed one's, all of them but those it had not
      // saved yet: the portal's count over the whole run, at most a second's worth short.
      const total = sim.capacity?.refused ?? 0;
      expect(Number(run?.[2])).toBeGreaterThan(total - killed);
      expect(Number(run?.[2])).toBeLessThanOrEqual(total);
      // Refused, the killed attempt had more than the 3 the portal takes in flight.
      expect(Number(run?.[4])).toBeGreaterThan(3);
      expect(Number(run?.[3])).toBeGreaterThanOrEqual(1);
      // The summary line tells the user the row's figures, not those of the resumed attempt.
      const [final] = await readRows(args[6] ?? "", "SELECT concurrency_final FROM _runs");
      expect(printedPace(resumed.stdout)).toEqual({
        min: Number(run?.[3]),
        max: Number(run?.[4]),
        final: Number(final?.[0]),
        overloads: Number(run?.[2]),
      });
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
      expect(killed?.slice(0, 2)).toEqual([1n, "failed"]);
      expect(Number(killed?.[2])).toBeGreaterThan(0);
      expect(Number(killed?.[2])).toBeLessThanOrEqual(refused);
      expect(Number(killed?.[4])).toBeGreaterThan(3);
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
