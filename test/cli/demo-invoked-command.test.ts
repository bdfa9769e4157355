/**
 * The commands the demo prints next start as the demo was started: `lms-export …` through the
 * installed command (npm install -g and npm link put a link named lms-export on PATH), `npx
 * lms-export …` through npx, which sets npm_command=exec and npm_lifecycle_event=npx. The built
 * CLI, spawned through such a link, with and without npx's environment.
 */
import { spawn } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { collect } from "../helpers/child-output.js";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-demo-invoked-");
const binDir = join(cwd, "global-bin");
mkdirSync(binDir);
symlinkSync(join(PROJECT_ROOT, "bin", "lms-export.js"), join(binDir, "lms-export"));

/** The environment of a shell with the link on PATH; npm's own variables, as vitest's, left out. */
function shellEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("npm_")),
  );
  return { ...env, PATH: `${binDir}:${process.env.PATH}`, LMS_QUIET: "1", ...extra };
}

/** The "Try next" lines of `lms-export demo` run as bash runs it with `extra` in its environment. */
async function nextLines(db: string, extra: Record<string, string>): Promise<string[]> {
  const demo = spawn("lms-export", ["demo", "--users", "20", "--format", "csv", "--db", db], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: shellEnv(extra),
  });
  const { code, stdout, stderr } = await collect(demo);
  expect(code, stderr).toBe(0);
  return stdout.split("\n").slice(stdout.split("\n").indexOf("Try next:") + 1, -1);
}

describe("demo's next commands", { timeout: 180_000 }, () => {
  it("say lms-export when it was started through the installed command", async () => {
    const lines = await nextLines("installed.duckdb", {});
    expect(lines[0]).toBe("  lms-export list");
    expect(lines.length).toBe(5);
    for (const line of lines) expect(line).toMatch(/^ {2}lms-export /);
  });

  it("say npx lms-export when npx started it", async () => {
    const npx = { npm_command: "exec", npm_lifecycle_event: "npx" };
    const lines = await nextLines("through-npx.duckdb", npx);
    expect(lines[0]).toBe("  npx lms-export list");
    for (const line of lines) expect(line).toMatch(/^ {2}npx lms-export /);
  });
});
