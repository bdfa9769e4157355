/**
 * The demo talks to its own simulated portal and writes where its flags say: a config file in the
 * folder and the environment of a real portal (LMS_BASE_URL, LMS_OUT, LMS_DB) change nothing.
 * In-process through main().
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-demo-settings-");

describe("demo", () => {
  it("writes into ./out, whatever the config file and the environment say", async () => {
    writeFileSync(
      join(cwd, "lms-export.config.json"),
      JSON.stringify({ baseUrl: "https://lms.example.com/api-v2", outDir: "real-reports" }),
    );
    const run = await runInProcess(["demo", "--users", "20"], cwd, {
      LMS_QUIET: "1",
      LMS_LOG_FORMAT: "json",
      // A real portal's address over plain http is refused; the demo never uses it.
      LMS_BASE_URL: "http://lms.internal.example/api-v2",
      LMS_OUT: "env-reports",
      LMS_DB: "real.duckdb",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(join(cwd, "out")).length).toBeGreaterThan(0);
    expect(existsSync(join(cwd, "real-reports"))).toBe(false);
    expect(existsSync(join(cwd, "env-reports"))).toBe(false);
    expect(existsSync(join(cwd, "real.duckdb"))).toBe(false);
    expect(existsSync(join(cwd, "lms-demo.duckdb"))).toBe(true);
  }, 120_000);
});
