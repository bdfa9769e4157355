/**
 * The effects a command may use, passed in so tests can run commands in-process with their own
 * streams, environment and working directory.
 */
import type { Writable } from "node:stream";
import type { LastWords } from "./last-words.js";

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
  /** What the process says if a second Ctrl-C ends it at once; absent when run in-process. */
  readonly lastWords?: LastWords;
  /**
   * The format of the CLI's own lines on stderr (its final error): JSON once the command has
   * read that a JSON log was asked for, so that every line of it is JSON. Absent when run
   * in-process, and the lines are text.
   */
  readonly stderrFormat?: StderrFormat;
}

/** Set by the command once it knows its log format (command-setup.ts). */
export interface StderrFormat {
  json: boolean;
}

export function processContext(signal: AbortSignal, lastWords?: LastWords): CliContext {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal,
    stderrFormat: { json: false },
    ...(lastWords === undefined ? {} : { lastWords }),
  };
}
