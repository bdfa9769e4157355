/** Collecting what a child process prints. */
import type { ChildProcess } from "node:child_process";

/** What a finished child printed, and its exit code (null when a signal ended it). */
export interface ChildOutput {
  code: number | null;
  /** The signal that ended it, if one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Resolves when the child has exited and its output streams are closed (so no late chunk is
 * lost); rejects if it could not be spawned.
 */
export function collect(child: ChildProcess): Promise<ChildOutput> {
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
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
