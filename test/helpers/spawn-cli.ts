/** Spawns the CLI from the sources as a real child process (see cli-child.ts). */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

export const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export function spawnCli(
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; cwd?: string } = {},
): ChildProcess {
  return spawn(
    process.execPath,
    ["--import", here("register-ts.mjs"), here("cli-child.ts"), ...args],
    {
      stdio: ["ignore", "pipe", "pipe"],
      cwd: options.cwd ?? PROJECT_ROOT,
      env: { ...process.env, ...options.env },
    },
  );
}

/** Runs the CLI to its end: exit code and everything it printed. */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, options);
  return collect(child);
}

export function collect(
  child: ChildProcess,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
