/**
 * An `--only` that names no resource (`--only=`, `--only ","`) is a mistake, not a request for
 * every resource, and an empty entry among names (`grp,,take`, `grp,`) a typo, not a shorter
 * list: both are refused before the portal is asked anything. In-process through main().
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

/** Runs `extract` with `only`; asserts the portal was asked nothing and no database made. */
async function refused(only: readonly string[]): Promise<string> {
  const db = join(cwd, `empty-only-${only.join("_").replace(/\W/g, "")}.duckdb`);
  const before = sim.stats.requests;
  const run = await runInProcess(["extract", "--base-url", sim.baseUrl, "--db", db, ...only], cwd, {
    LMS_API_KEY: KEY,
    LMS_QUIET: "1",
  });
  expect(run.code, run.stderr).toBe(2);
  expect(sim.stats.requests).toBe(before);
  expect(existsSync(db)).toBe(false);
  return run.stderr;
}

describe("extract --only naming no resource", () => {
  it.each([[["--only="]], [["--only", ","]], [["--only", " , "]]])(
    "%j is refused, nothing asked of the portal",
    async (only) => {
      expect(await refused(only)).toMatch(
        /^lms-export: --only needs at least one resource: grp, .*user_grp.*\n$/,
      );
    },
  );
});

describe("extract --only with an empty entry among names", () => {
  it.each([
    [["--only", "grp,,take"], '"grp,,take": entry 2 of 3'],
    [["--only", "grp,"], '"grp,": entry 2 of 2'],
    [["--only", ",grp"], '",grp": entry 1 of 2'],
    [["--only", "grp", "--only", ""], '"grp,": entry 2 of 2'],
  ])("%j is refused, naming the empty entry and the names", async (only, entry) => {
    const stderr = await refused(only);
    expect(stderr).toBe(
      `lms-export: --only ${entry} is empty (a comma too many); choose from grp, user_grp, product_access, svc_availability, take, availability_group, product\n`,
    );
  });
});
