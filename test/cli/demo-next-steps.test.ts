/**
 * The commands the demo suggests at its end run as printed when pasted into a shell, also when
 * its database lies in a folder whose name has a space and accents. The demo in this process;
 * the suggested lines in bash, `npx lms-export` being the built CLI of this checkout.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-demo-next-");
const BIN = join(PROJECT_ROOT, "bin", "lms-export.js");
const NPX = `npx() { shift; node "${BIN}" "$@"; }\n`;

describe("demo's next steps", () => {
  it("run as printed, with a database in a folder named with a space and accents", async () => {
    mkdirSync(join(cwd, "bases ü"));
    const demo = await runInProcess(
      ["demo", "--users", "20", "--format", "csv", "--db", "bases ü/démo.duckdb"],
      cwd,
      { LMS_QUIET: "1", LMS_LOG_FORMAT: "json" },
    );
    expect(demo.code, demo.stderr).toBe(0);
    const line = demo.stdout.split("\n").find((l) => l.includes("report compliance"));
    expect(line).toBeDefined();
    const command = (line ?? "").trim().replace("--format csv", "--format csv --out next");
    await promisify(execFile)("bash", ["-c", `${NPX}${command}`], {
      cwd,
      env: { ...process.env, LMS_QUIET: "1" },
    });
    expect(existsSync(join(cwd, "next"))).toBe(true);
    expect(readdirSync(join(cwd, "next"))).toEqual([expect.stringMatching(/^compliance-.*\.csv$/)]);
  }, 120_000);
});
