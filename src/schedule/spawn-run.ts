/**
 * One scheduled run as a child process of this same CLI, so a crash or a leak in one run cannot
 * take the scheduler down with it.
 */
import { spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { shellWord } from "../text/shell-word.js";

/** The CLI's launcher, found from this module's place in src/ or dist/. */
export const CLI_BIN_PATH = fileURLToPath(new URL("../../bin/lms-export.js", import.meta.url));

/** How one run ended. */
export interface RunOutcome {
  /** The exit code, or null when the process ended by a signal or never started. */
  exitCode: number | null;
  /** The signal that ended it, if any. */
  signal: string | null;
  /** Why it could not start (e.g. ENOENT), if it could not. */
  error?: string;
}

/** One started run of the scheduled command. */
export interface ChildRun {
  /** Resolves (never rejects) once the run has ended. */
  readonly exited: Promise<RunOutcome>;
  /** Sends a signal to the run (SIGTERM to ask it to stop, SIGKILL to end it). */
  kill(signal: NodeJS.Signals): void;
}

/**
 * Set in a run's environment: the run is the schedule's, and the end of its channel means the
 * schedule is gone (src/cli/schedule-gone.ts). Any other program may fork lms-export with a
 * channel and let it go (pm2, a job runner detaching): that is no reason to stop.
 */
export const SCHEDULED_RUN_ENV = "LMS_SCHEDULED_RUN";

/** Where a run's output goes: this process's own streams are shared, others get a pipe. */
export interface RunStreams {
  stdout: Writable;
  stderr: Writable;
  env: Readonly<Record<string, string | undefined>>;
  cwd?: string;
}

/**
 * Starts `file args...` as a child process. Default `file`/`args`: this CLI run by the same Node
 * (process.execPath + CLI_BIN_PATH + `args`), so the schedule runs the same version it is.
 */
export function spawnCliRun(
  args: readonly string[],
  streams: RunStreams = { stdout: process.stdout, stderr: process.stderr, env: process.env },
  command: { file: string; args: readonly string[] } = {
    file: process.execPath,
    args: [CLI_BIN_PATH, ...args],
  },
): ChildRun {
  const outInherit = streams.stdout === process.stdout;
  const errInherit = streams.stderr === process.stderr;
  const child = spawn(command.file, [...command.args], {
    cwd: streams.cwd,
    env: { ...streams.env, [SCHEDULED_RUN_ENV]: "1" },
    // The channel is never written to: its end tells the run that the schedule died without
    // stopping it (src/cli/schedule-gone.ts).
    stdio: ["ignore", outInherit ? "inherit" : "pipe", errInherit ? "inherit" : "pipe", "ipc"],
  });
  child.stdout?.pipe(streams.stdout, { end: false });
  child.stderr?.pipe(streams.stderr, { end: false });
  const exited = new Promise<RunOutcome>((resolve) => {
    child.once("error", (error) => resolve({ exitCode: null, signal: null, error: error.message }));
    // "close", not "exit": the run's last output lines have been passed on by then.
    child.once("close", (code, signalName) => resolve({ exitCode: code, signal: signalName }));
  });
  return {
    exited,
    kill: (signalName) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signalName);
    },
  };
}

/** Flags whose value is a secret; each command refuses them, but a log must not show them. */
const SECRET_FLAGS = ["--api-key", "--smtp-password"];

/**
 * The command as a log shows it, each word quoted for a POSIX shell so that it can be pasted and
 * run, with any value given to a secret's flag hidden.
 */
export function displayCommand(args: readonly string[]): string {
  const shown: string[] = [];
  let hideNext = false;
  for (const arg of args) {
    const flag = SECRET_FLAGS.find((name) => arg.startsWith(`${name}=`));
    if (hideNext) {
      shown.push("[redacted]");
      hideNext = false;
    } else if (flag !== undefined) {
      shown.push(`${flag}=[redacted]`);
    } else {
      // Quoted as a shell reads it back: `sql "SELECT count(*) FROM take"` is one word.
      shown.push(shellWord(arg));
      hideNext = SECRET_FLAGS.includes(arg);
    }
  }
  return ["lms-export", ...shown].join(" ");
}
