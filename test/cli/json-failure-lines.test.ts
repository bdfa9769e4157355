/**
 * With a JSON log asked for, a failure is JSON too: every line on stderr parses, the final error
 * is a {"level":"error",…,"msg":…} record, and under --all-portals each failed portal has an error
 * record naming it. A text log, and a log that is JSON only by default (stderr not a terminal),
 * keep the one `lms-export: …` line. Real child processes, a
 * simulated portal that refuses a wrong key over real HTTP.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "json-failure-key-41c7";
const dir = tempDirForFile("lms-json-failure-");

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 20, takesPerUser: 2, seed: 5 });
  await writeFile(join(dir, "good.key"), `${KEY}\n`, { mode: 0o600 });
  await writeFile(join(dir, "bad.key"), "not-the-key\n", { mode: 0o600 });
});
afterAll(async () => {
  await sim?.close();
});

/** Every line of `stderr`, parsed: throws if one is not a JSON object. */
function records(stderr: string): Record<string, unknown>[] {
  return stderr
    .trimEnd()
    .split("\n")
    .map((line) => {
      const value: unknown = JSON.parse(line);
      if (typeof value !== "object" || value === null) throw new Error(`not an object: ${line}`);
      return value as Record<string, unknown>;
    });
}

describe("a failure in a JSON log", () => {
  it("ends a single extract with an error record, every line JSON", async () => {
    const args = ["extract", "--base-url", sim.baseUrl, "--db", join(dir, "one.duckdb")];
    const run = await runCli([...args, "--log-format", "json"], {
      cwd: dir,
      env: { LMS_API_KEY: "not-the-key" },
    });
    expect(run.code, run.stderr).toBe(2);
    const last = records(run.stderr).at(-1);
    expect(last).toMatchObject({
      level: "error",
      msg: expect.stringMatching(/refused the API key/),
    });
    expect(typeof last?.time).toBe("string");
  });

  it("keeps the text line in a human log", async () => {
    const args = ["extract", "--base-url", sim.baseUrl, "--db", join(dir, "two.duckdb")];
    const run = await runCli([...args, "--log-format", "human"], {
      cwd: dir,
      env: { LMS_API_KEY: "not-the-key", NO_COLOR: "1" },
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split("\n").at(-1)).toMatch(/^lms-export: .*refused the API key/);
  });

  it("keeps the text line where JSON is only the default off a terminal", async () => {
    // Scripts that read the last line of a cron job's stderr get the line they always got.
    const args = ["extract", "--base-url", sim.baseUrl, "--db", join(dir, "three.duckdb")];
    const run = await runCli(args, {
      cwd: dir,
      env: { LMS_API_KEY: "not-the-key", LMS_LOG_FORMAT: undefined },
    });
    expect(run.code).toBe(2);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines.at(-1)).toMatch(/^lms-export: .*refused the API key/);
    expect(lines.slice(0, -1).every((line) => line.startsWith("{"))).toBe(true);
    const viaEnv = await runCli(args, {
      cwd: dir,
      env: { LMS_API_KEY: "not-the-key", LMS_LOG_FORMAT: "json" },
    });
    expect(records(viaEnv.stderr).at(-1)).toMatchObject({ level: "error" });
  });

  it("gives each failed portal of --all-portals an error record naming it", async () => {
    const portal = (name: string, key: string) => ({
      baseUrl: sim.baseUrl,
      apiKeyFile: join(dir, key),
      db: join(dir, `${name}.duckdb`),
    });
    const config = {
      portals: { north: portal("north", "good.key"), south: portal("south", "bad.key") },
    };
    await writeFile(join(dir, "lms-export.config.json"), JSON.stringify(config));
    const run = await runCli(["extract", "--all-portals", "--log-format", "json"], {
      cwd: dir,
      env: { LMS_API_KEY: undefined, LMS_API_KEY_FILE: undefined },
    });
    expect(run.code, run.stderr).toBe(1);
    const errors = records(run.stderr).filter((r) => r.level === "error");
    expect(errors.map((r) => [r.portal, r.msg])).toEqual([
      ["south", expect.stringMatching(/^portal south failed: .*refused the API key/)],
      [
        undefined,
        "1 of 2 portals failed: south; `lms-export extract --all-portals --resume` continues the batch",
      ],
    ]);
  });
});
