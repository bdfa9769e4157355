/** Spawning helper scripts (TypeScript through the project's loader hooks) and waiting on them. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

/** Runs `script` (a file in this folder) with Node; `.ts` scripts get the TypeScript hooks. */
export function spawnHelper(
  script: string,
  args: readonly string[],
  options: { uid?: number; gid?: number } = {},
): ChildProcess {
  const node = script.endsWith(".ts")
    ? [
        "--import",
        fileURLToPath(new URL("../../helpers/register-ts.mjs", import.meta.url)),
        here(script),
      ]
    : [here(script)];
  return spawn(process.execPath, [...node, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    cwd: fileURLToPath(new URL("../../../", import.meta.url)),
    ...options,
  });
}

/** Resolves when the child prints a line equal to `line`; rejects if it exits first. */
export function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.split("\n").includes(line)) resolve();
    });
    child.on("exit", (code) =>
      reject(new Error(`child exited (${code}) before "${line}": ${out} ${err}`)),
    );
  });
}

/** Kills the child with `signal` and waits for it to be gone. */
export async function kill(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.on("exit", resolve));
  child.kill(signal);
  await gone;
}

/** A child process holding the DuckDB file `db` open read-write (its lock), once it is ready. */
export async function holdDatabaseLock(db: string): Promise<ChildProcess> {
  const holder = spawnHelper("hold-lock.mjs", [db]);
  await waitForLine(holder, "ready");
  return holder;
}
