/**
 * A look-back beyond ten years is bad input at once, from the flag, the environment or the config
 * file, instead of an invalid date once an incremental run subtracts it from the last run's start.
 * A real simulated portal, in-process through main().
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-lookback-");
let sim: RunningSimulator;
let extract: string[];

beforeAll(async () => {
  sim = await startSimulator({ users: 5, takesPerUser: 1 });
  extract = ["extract", "--base-url", sim.baseUrl, "--only", "grp"];
  // An earlier successful run, so an incremental run has a start to look back from.
  const first = await runCli(dir, extract, { LMS_API_KEY: "demo-key" });
  expect(first.code, first.stderr).toBe(0);
});

afterAll(async () => {
  await sim.close();
});

const EXPECTED = "must be a number of minutes from 0 to 5256000, which is ten years";

describe("--lookback, LMS_LOOKBACK and lookback", () => {
  it.each([
    [["--lookback", "1e15"], {}, `option --lookback ${EXPECTED} (got 1e15)`],
    [[], { LMS_LOOKBACK: "1e15" }, `environment variable LMS_LOOKBACK ${EXPECTED} (got "1e15")`],
    [[], { LMS_CONFIG: "big.json" }, `big.json: field "lookback" ${EXPECTED}`],
  ])("%j %j beyond ten years is one line, exit 2", async (flags, env, message) => {
    writeFileSync(join(dir, "big.json"), JSON.stringify({ lookback: 1e15 }));
    const run = await runCli(dir, [...extract, "--incremental", ...flags], {
      LMS_API_KEY: "demo-key",
      ...env,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^lms-export: .*\n$/);
    expect(run.stderr).toContain(message);
  });

  it("ten years is still accepted", async () => {
    const run = await runCli(dir, [...extract, "--incremental", "--lookback", "5256000"], {
      LMS_API_KEY: "demo-key",
    });
    expect(run.code, run.stderr).toBe(0);
  });

  it.each([
    [["--lookback", "30"], "add --incremental, or drop --lookback"],
    [["--full", "--lookback", "30"], "add --incremental, or drop --lookback"],
    [["--since", "2026-01-01", "--lookback", "30"], "drop --lookback, or move --since back"],
  ])("%j is refused, since the flag would change nothing", async (flags, todo) => {
    const run = await runCli(dir, [...extract, ...flags], { LMS_API_KEY: "demo-key" });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^lms-export: --lookback .*\n$/);
    expect(run.stderr).toContain(todo);
  });

  it("LMS_LOOKBACK still serves a full run, which does not use it", async () => {
    const run = await runCli(dir, extract, { LMS_API_KEY: "demo-key", LMS_LOOKBACK: "30" });
    expect(run.code, run.stderr).toBe(0);
  });
});
