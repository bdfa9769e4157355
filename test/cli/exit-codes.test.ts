import { existsSync } from "node:fs";
/**
 * Exit codes as a shell sees them: a real extract stopped by Ctrl-C answers 130, by SIGTERM 143,
 * marks its run interrupted and keeps its staged work so `--resume` continues it.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { collect, runCli, spawnCli } from "../helpers/spawn-cli.js";

const KEY = "exit-codes-key-55e1";
let dir: string;
let sim: RunningSimulator;
let keyFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-exit-"));
  sim = await startSimulator({ apiKey: KEY, users: 200, takesPerUser: 3, seed: 8 });
  keyFile = join(dir, "key");
  await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe("an extract stopped by a signal", () => {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    it(`answers ${code} on ${signal}, marks the run interrupted, and --resume finishes it`, async () => {
      const db = join(dir, `${signal}.duckdb`);
      const args = [
        ...["extract", "--base-url", sim.baseUrl, "--api-key-file", keyFile, "--db", db],
        ...["--concurrency", "1", "--page-size", "10", "--log-format", "json"],
      ];
      sim.faults.latencyMs = 15;
      const before = sim.stats.requests;
      const child = spawnCli(args);
      const done = collect(child);
      // Well into the run: the lists are paged and some users' takes are fetched.
      while (sim.stats.requests - before < 150 && child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill(signal);
      const stopped = await done;
      sim.faults.latencyMs = 0;
      expect(stopped.code, stopped.stderr).toBe(code);
      expect(stopped.stderr).toContain("extract interrupted");
      expect(await readRows(db, "SELECT status FROM _runs")).toEqual([["interrupted"]]);
      // What it fetched waits in the side file beside the database.
      const staged = await readRows(`${db}.staging`, "SELECT count(*) FROM _stage_grp");
      expect(Number(staged[0]?.[0])).toBeGreaterThan(0);

      const resumed = await runCli([...args, "--resume"]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(await readRows(db, "SELECT status FROM _runs")).toEqual([["succeeded"]]);
      // Merged: the side file is gone.
      expect(existsSync(`${db}.staging`)).toBe(false);
    });
  }
});
