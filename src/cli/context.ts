/**
 * The effects a command may use, passed in so tests can run commands in-process with their own
 * streams, environment and working directory.
 */
import type { Writable } from "node:stream";

export interface CliContext {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Aborted on SIGINT/SIGTERM; long commands stop cleanly when it fires. */
  readonly signal: AbortSignal;
  /**
   * Set for each portal's run under `--all-portals`: the runs share stderr, so each log line
   * names its portal. Absent otherwise, and lines are as a single run prints them.
   */
  readonly logPortal?: string;
}

export function processContext(signal: AbortSignal): CliContext {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal,
  };
}
