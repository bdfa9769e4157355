/**
 * An `--only` that names no resource (`--only=`, `--only ","`) is a mistake, not a request for
 * every resource: it is refused before the portal is asked anything. In-process through main().
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "only-empty-key-7c2";
const cwd = tempDirForFile("lms-only-empty-");
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 20, seed: 5 });
});
afterAll(async () => {
  await sim.close();
});

describe("extract --only naming no resource", () => {
  it.each([[["--only="]], [["--only", ","]], [["--only", " , "]]])(
    "%j is refused, nothing asked of the portal",
    async (only) => {
      const db = join(cwd, `empty-only-${sim.stats.requests}.duckdb`);
      const before = sim.stats.requests;
      const run = await runInProcess(
        ["extract", "--base-url", sim.baseUrl, "--db", db, ...only],
        cwd,
        { LMS_API_KEY: KEY, LMS_QUIET: "1" },
      );
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(
        /^lms-export: --only needs at least one resource: grp, .*user_grp.*\n$/,
      );
      expect(sim.stats.requests).toBe(before);
      expect(existsSync(db)).toBe(false);
    },
  );
});
