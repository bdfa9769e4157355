/**
 * An extract that stops advises resuming its database: a portal's names the portal, one given --db names it: `extract --resume` alone resumes the
 * database of the top-level settings, not the portal's (here: no portal address at all).
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-portal-resume-");
let sim: RunningSimulator;

/** main() in-process, stopped through its signal once `stop` holds; what it printed. */
async function stoppedRun(
  args: string[],
  stop: () => boolean,
  env: Record<string, string> = {},
): Promise<string> {
  let out = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      out += String(chunk);
      done();
    },
  });
  const controller = new AbortController();
  const timer = setInterval(() => {
    if (stop()) controller.abort();
  }, 1);
  const ctx = { stdout: stream, stderr: stream, env, cwd: dir, signal: controller.signal };
  try {
    await main(args, ctx);
  } finally {
    clearInterval(timer);
  }
  return out;
}

/**
 * `out` advises `advice`, and the advice as printed (words without quoting) resumes run 1 in a
 * shell with none of the stopped run's settings.
 */
async function expectAdviceResumes(out: string, advice: string): Promise<void> {
  expect(out).toContain(`\`${advice}\` continues from here`);
  const resumed = await runInProcess([...advice.split(" ").slice(1), "--log-format", "json"], dir);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stderr).toContain('"msg":"resuming run 1"');
}

beforeAll(async () => {
  sim = await startSimulator({ users: 200, takesPerUser: 2, faults: { latencyMs: 20 } });
  await writeFile(join(dir, "key"), "demo-key\n", { mode: 0o600 });
  const portals = { north: { baseUrl: sim.baseUrl, apiKeyFile: "key" } };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals }));
});

afterAll(async () => {
  await sim.close();
});

describe("the resume advice of a portal's extract", () => {
  test("names the portal, and following it resumes the portal's run", async () => {
    const out = await stoppedRun(
      ["extract", "--all-portals", "--log-format", "json"],
      () => sim.stats.requests > 30,
    );
    // Cut short by the stop, not failed.
    expect(out).toContain("portal north: stopped: extract interrupted");
    expect(out).toContain("1 of 1 portals stopped before the end: north");
    expect(out).not.toContain("failed");
    expect(out).toContain("`lms-export extract --portal north --resume` continues from here");
    expect(out).not.toContain("`lms-export extract --resume`");

    const resumed = await runInProcess(
      ["extract", "--portal", "north", "--resume", "--log-format", "json"],
      dir,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('"msg":"resuming run 1"');
  });

  test("names the --db given, and following it resumes that database's run", async () => {
    const env = ["--base-url", sim.baseUrl, "--log-format", "json"];
    const before = sim.stats.requests;
    const out = await stoppedRun(
      ["extract", "--db=-other db.duckdb", ...env],
      () => sim.stats.requests > before + 30,
      { LMS_API_KEY: "demo-key" },
    );
    expect(out).toContain(
      `\`lms-export extract --db './-other db.duckdb' --base-url ${sim.baseUrl} --resume\` continues from here`,
    );
    // As advised, with the portal's address the run was given (the key comes from LMS_API_KEY).
    const resumed = await runInProcess(
      ["extract", "--db", "./-other db.duckdb", "--resume", ...env],
      dir,
      { LMS_API_KEY: "demo-key" },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('"msg":"resuming run 1"');
  });

  test("names the --config given, whose database it is, and following it resumes there", async () => {
    await mkdir(join(dir, "cfgdir"), { recursive: true });
    const settings = { db: "other.duckdb", baseUrl: sim.baseUrl };
    await writeFile(join(dir, "cfgdir", "cfg.json"), JSON.stringify(settings));
    const key = { LMS_API_KEY: "demo-key" };
    const before = sim.stats.requests;
    const out = await stoppedRun(
      ["extract", "--config", "cfgdir/cfg.json", "--log-format", "json"],
      () => sim.stats.requests > before + 30,
      key,
    );
    expect(out).toContain(
      "`lms-export extract --config cfgdir/cfg.json --resume` continues from here",
    );
    const resumed = await runInProcess(
      ["extract", "--config", "cfgdir/cfg.json", "--resume", "--log-format", "json"],
      dir,
      key,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('"msg":"resuming run 1"');
    expect(existsSync(join(dir, "cfgdir", "other.duckdb"))).toBe(true);
  });

  test("names the database LMS_DB gave, and the address, key file and --allow-http typed, which a new shell lacks", async () => {
    const flags = ["--base-url", sim.baseUrl, "--api-key-file", "key", "--allow-http"];
    const before = sim.stats.requests;
    const out = await stoppedRun(
      ["extract", ...flags, "--log-format", "json"],
      () => sim.stats.requests > before + 30,
      { LMS_DB: "from-env.duckdb" },
    );
    const path = join(dir, "from-env.duckdb");
    await expectAdviceResumes(out, `lms-export extract --db ${path} ${flags.join(" ")} --resume`);
  });

  test("names the address and key file LMS_* variables gave, which a new shell may not set", async () => {
    const before = sim.stats.requests;
    const env = { LMS_BASE_URL: sim.baseUrl, LMS_API_KEY_FILE: "key", LMS_DB: "vars.duckdb" };
    const out = await stoppedRun(
      ["extract", "--log-format", "json"],
      () => sim.stats.requests > before + 30,
      env,
    );
    await expectAdviceResumes(
      out,
      `lms-export extract --db ${join(dir, "vars.duckdb")} --base-url ${sim.baseUrl} --api-key-file ${join(dir, "key")} --resume`,
    );
  });
});
