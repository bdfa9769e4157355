/**
 * The built CLI (`bin/lms-export.js`, running dist/) as a child process, as a user runs it, and a
 * simulated portal started through it on a free port. dist/ is built by `npm test` first.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { collect } from "./child-output.js";
import { PROJECT_ROOT } from "./spawn-cli.js";

const BIN = join(PROJECT_ROOT, "bin", "lms-export.js");

/** Spawns the built CLI with `args` in `cwd`. */
export function builtCli(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
}

/** Starts `simulate` on a free port; answers the process and the base URL it printed first. */
export async function startBuiltSimulator(
  cwd: string,
  options: { users: number; apiKey: string },
): Promise<{ portal: ChildProcess; baseUrl: string }> {
  if (!existsSync(join(PROJECT_ROOT, "dist", "cli", "main.js"))) {
    throw new Error("dist/ is missing: run `npm run build` (npm test does it first)");
  }
  const args = ["simulate", "--port", "0", "--users", String(options.users)];
  const portal = builtCli([...args, "--api-key", options.apiKey], cwd);
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    portal.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve(line.trim());
    });
    portal.once("exit", (code) => reject(new Error(`simulate exited with ${code}`)));
  });
  return { portal, baseUrl };
}

/**
 * Runs `report ...args --out out` with the built CLI in `cwd` and answers the one file it wrote
 * there; throws with what it printed when it fails or writes anything to stderr.
 */
export async function builtReportFile(args: readonly string[], cwd: string): Promise<string> {
  const run = await collect(builtCli(["report", ...args, "--out", "out"], cwd, { LMS_QUIET: "1" }));
  if (run.code !== 0 || run.stderr !== "") {
    throw new Error(`report exited with ${run.code}: ${run.stderr}`);
  }
  const files = await readdir(join(cwd, "out"));
  if (files.length !== 1) throw new Error(`report wrote ${files.join(", ") || "nothing"}`);
  return join(cwd, "out", files[0] ?? "");
}
