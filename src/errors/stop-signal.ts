/**
 * The reason a command's abort signal carries when a process signal stopped it
 * (src/cli/stop-signals.ts): an interruption like any other, naming the signal, so that what a
 * stage says while it stops can say what a second one does (a second Ctrl-C ends the process at
 * once, a second SIGTERM or SIGHUP does not).
 */
import { LmsExportError } from "./lms-export-error.js";

/** The process signals that stop a command. */
export type StopSignalName = "SIGINT" | "SIGTERM" | "SIGHUP";

export class StoppedBySignal extends LmsExportError {
  readonly signal: StopSignalName;

  constructor(signal: StopSignalName) {
    super("interrupted", "interrupted");
    this.signal = signal;
  }
}

/** The process signal that aborted `signal`; undefined when none did (or another abort came first). */
export function stopSignalOf(signal: AbortSignal | undefined): StopSignalName | undefined {
  const reason: unknown = signal?.reason;
  return reason instanceof StoppedBySignal ? reason.signal : undefined;
}
