/**
 * stderr on a device that is always full (/dev/full: every write fails with ENOSPC). The log is
 * not the work: extract and report do their work and exit 0, the run is recorded as succeeded
 * (not failed for "no space left" on the database's disk), whichever log format. Real child
 * processes whose stderr is /dev/full, a simulated portal over real HTTP.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { collect } from "../helpers/child-output.js";
import { readRows } from "../helpers/read-rows.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const KEY = "full-log-stream-key-8b2f";
const dir = tempDirForFile("lms-full-log-");

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 40, takesPerUser: 4, seed: 12 });
});
afterAll(async () => {
  await sim?.close();
});

/** Runs the CLI (from the sources) with stderr on /dev/full; answers its exit code and stdout. */
async function withFullStderr(args: readonly string[]) {
  const full = openSync("/dev/full", "w");
  try {
    const child = spawn(
      process.execPath,
      ["--import", here("../helpers/register-ts.mjs"), here("../helpers/cli-child.ts"), ...args],
      { cwd: dir, stdio: ["ignore", "pipe", full], env: { ...process.env, LMS_API_KEY: KEY } },
    );
    const { code, stdout } = await collect(child);
    return { code, stdout };
  } finally {
    closeSync(full);
  }
}

describe.skipIf(!existsSync("/dev/full"))("a log stream that cannot be written", () => {
  it.each(["json", "human"])(
    "does not fail an extract (%s log): exit 0, the run succeeded",
    async (format) => {
      const db = join(dir, `${format}.duckdb`);
      const run = await withFullStderr([
        ...["extract", "--base-url", sim.baseUrl, "--db", db, "--log-format", format],
      ]);
      expect(run.code, run.stdout).toBe(0);
      expect(await readRows(db, "SELECT status, error FROM _runs")).toEqual([["succeeded", null]]);
    },
  );

  it("does not fail a report: exit 0, its files written", async () => {
    const db = join(dir, "json.duckdb");
    const out = join(dir, "out");
    const run = await withFullStderr([
      ...["report", "weekly-compliance", "--db", db, "--out", out, "--log-format", "json"],
    ]);
    expect(run.code, run.stdout).toBe(0);
    expect(readdirSync(out).filter((name) => name.endsWith(".xlsx"))).toHaveLength(1);
  });
});
