/** Spawns the CLI from the sources as a real child process (see cli-child.ts). */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type ChildOutput, collect } from "./child-output.js";

export { collect } from "./child-output.js";

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

export const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface SpawnOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** A command that runs the CLI's command line it is given (`setpriv …`, `unshare …`). */
  via?: readonly string[];
}

export function spawnCli(args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const cli = [
    process.execPath,
    "--import",
    here("register-ts.mjs"),
    here("cli-child.ts"),
    ...args,
  ];
  const [command = process.execPath, ...rest] = [...(options.via ?? []), ...cli];
  return spawn(command, rest, {
    stdio: ["ignore", "pipe", "pipe"],
    cwd: options.cwd ?? PROJECT_ROOT,
    env: { ...process.env, ...options.env },
  });
}

/** Runs the CLI to its end: exit code and everything it printed. */
export function runCli(args: readonly string[], options: SpawnOptions = {}): Promise<ChildOutput> {
  return collect(spawnCli(args, options));
}
