/**
 * The demo stops when asked at any step, not only while it extracts, and what would stop it after
 * its portal ran and its extract was written (an output folder or a database that cannot be) is
 * found before anything starts. In-process through main(), with a real simulated portal.
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-demo-stops-");
const env = { LMS_QUIET: "1", LMS_LOG_FORMAT: "json" };

describe("demo", () => {
  it("stops at Ctrl-C once its extract is done: no report is written after it", async () => {
    const controller = new AbortController();
    let printed = "";
    let stderr = "";
    const stdout = new Writable({
      write(chunk, _encoding, done) {
        printed += String(chunk);
        // Ctrl-C as soon as the roster is in: the reports are what is left to do.
        if (printed.includes("\nroster: ")) controller.abort();
        done();
      },
    });
    const errors = new Writable({
      write(chunk, _encoding, done) {
        stderr += String(chunk);
        done();
      },
    });
    const args = ["demo", "--users", "20", "--db", "stopped.duckdb", "--out", "stopped-out"];
    const code = await main(args, { stdout, stderr: errors, env, cwd, signal: controller.signal });
    expect(printed).toContain("\nroster: ");
    expect(code).toBe(130);
    expect(stderr).toMatch(/^lms-export: .*interrupted/m);
    expect(readdirSync(join(cwd, "stopped-out"))).toEqual([]);
  }, 120_000);

  it("stopped while it extracts, says to run the demo again: its portal is gone, no resume", async () => {
    const controller = new AbortController();
    let stderr = "";
    const errors = new Writable({
      write(chunk, _encoding, done) {
        stderr += String(chunk);
        if (stderr.includes("; extracting into ")) controller.abort();
        done();
      },
    });
    const stdout = new Writable({ write: (_chunk, _encoding, done) => done() });
    const args = ["demo", "--users", "20", "--db", "cut short.duckdb"];
    const code = await main(args, { stdout, stderr: errors, env, cwd, signal: controller.signal });
    expect(code).toBe(130);
    expect(stderr).toContain(
      "extract interrupted; the database is unchanged (the demo's simulated portal is gone: `npx lms-export demo --db 'cut short.duckdb' --users 20` starts it again)",
    );
    expect(stderr).not.toContain("extract --resume");
  }, 120_000);

  it("refuses an output folder it cannot make before its portal starts", async () => {
    writeFileSync(join(cwd, "a-file"), "in the way\n");
    const run = await runInProcess(
      ["demo", "--users", "20", "--db", "early.duckdb", "--out", "a-file/out"],
      cwd,
      env,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^lms-export: cannot write to output directory .*a-file\/out/);
    expect(run.stderr).not.toContain("starting a simulated portal");
    expect(existsSync(join(cwd, "early.duckdb"))).toBe(false);
  });

  it("refuses a database in a folder that does not exist before its portal starts", async () => {
    const run = await runInProcess(["demo", "--users", "20", "--db", "no-such/d.duckdb"], cwd, env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /directory \S*no-such for database no-such\/d\.duckdb does not exist/,
    );
    expect(run.stderr).not.toContain("starting a simulated portal");
  });
});
