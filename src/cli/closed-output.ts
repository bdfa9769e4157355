/**
 * What the process does when its output cannot be written. The reader of stdout going away
 * (`lms-export sql ... | head -1`) drops the rest quietly, as a shell user expects, instead of an
 * unhandled EPIPE error with a stack trace. Any other failure to write stdout (a full disk under
 * `> file`) is kept so the command can end with a failure instead of exit code 0: stdout carries
 * what the command was asked for (a query's rows, the files written), and it was lost.
 *
 * stderr is the log, and a failure to write it never fails the command, whichever command it is:
 * the exit code says whether the work was done, and a scheduler that saw exit 1 after an extract,
 * a publish or a mailing that did succeed would run it again (mail sent twice) or raise an alarm
 * about the wrong thing. Log lines that could not be written are counted (log-line-output.ts) and
 * said once at the end, where stderr may work again (space freed, a transient EIO).
 */
import type { Writable } from "node:stream";
import { lostLogLines, noteLostLogLine } from "../log/log-line-output.js";
import type { StderrFormat } from "./context.js";
import { writeStderrLine } from "./stderr-line.js";

/** Watches the process's stdout and stderr for the life of one command. */
export interface OutputGuard {
  /** The first failure to write stdout that was not a closed reader, if any. */
  failure(): Error | undefined;
  /** Removes the listeners, and says how many log lines were lost, if any. */
  dispose(): void;
}

/** Errors that only mean "nobody reads this any more". */
const CLOSED_READER = new Set(["EPIPE", "ERR_STREAM_DESTROYED", "ECONNRESET"]);

/** Watches `stdout` and `log.stderr` (whose last line follows `log.stderrFormat`). */
export function guardOutput(
  stdout: Writable,
  log: { stderr: Writable; stderrFormat?: StderrFormat },
): OutputGuard {
  const { stderr } = log;
  let first: Error | undefined;
  const onError = (error: Error & { code?: string }) => {
    if (error.code !== undefined && CLOSED_READER.has(error.code)) return;
    first ??= error;
  };
  // Lines written to stderr directly (not through writeLogLine) report a failure here, later.
  const onLogError = (error: Error) => noteLostLogLine(error);
  stdout.on("error", onError);
  stderr.on("error", onLogError);
  return {
    failure: () => first,
    dispose() {
      const lost = lostLogLines();
      if (lost.count > 0) {
        const lines = lost.count === 1 ? "1 log line was" : `${lost.count} log lines were`;
        const why = `could not be written to stderr (${lost.reason})`;
        writeStderrLine(log, "warn", `lms-export: ${lines} left out: they ${why}`);
      }
      // Late errors still need a listener, or a write made after main() returns would crash
      // the process on its way out; the listener only forgets them.
      stdout.off("error", onError);
      stderr.off("error", onLogError);
      for (const stream of [stdout, stderr]) stream.on("error", () => {});
    },
  };
}
