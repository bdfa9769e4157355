/**
 * The signals that stop a running command: Ctrl-C (SIGINT), SIGTERM and SIGHUP (a closed
 * terminal or ended session) abort its signal, and the command stops cleanly. A command that
 * ends in an error after one was stopped by it: main() answers 130, 143 or 129, as a shell
 * reports a program the signal killed. Commands whose normal end is a signal (simulate,
 * schedule) return and answer 0.
 */
import { StoppedBySignal, type StopSignalName } from "../errors/stop-signal.js";
import { EXIT_SIGHUP, EXIT_SIGINT, EXIT_SIGTERM, type ExitCode } from "./exit-codes.js";
import type { LastWords } from "./last-words.js";
import { watchScheduleGone } from "./schedule-gone.js";

export interface StopSignals {
  /** The exit code of the first signal that came, if one did. */
  signalled(): ExitCode | undefined;
  /** Lets go of the process's signals. */
  release(): void;
}

/**
 * Aborts `controller` on the first stop signal; listens to the process's only when `listen`. A
 * run whose schedule is gone (schedule-gone.ts) stops as on SIGTERM, after `onScheduleGone`.
 */
export function listenForStops(
  controller: AbortController,
  lastWords: LastWords,
  listen: boolean,
  onScheduleGone: () => void = () => {},
): StopSignals {
  let signalled: ExitCode | undefined;
  // The abort's reason names the signal: a stage that waits while stopping says what stops it sooner.
  const stopBy = (code: ExitCode, name: StopSignalName) => () => {
    signalled ??= code;
    controller.abort(new StoppedBySignal(name));
  };
  let interrupts = 0;
  const onInt = () => {
    if (interrupts++ === 0) {
      stopBy(EXIT_SIGINT, "SIGINT")();
      return;
    }
    // A second Ctrl-C ends the process at once, killed by the signal as by Node's default (a
    // shell running a script stops it too), after the command's last words: what it did that
    // cannot be undone, such as mail delivered.
    lastWords.writeNow();
    process.off("SIGINT", onInt);
    process.kill(process.pid, "SIGINT");
  };
  // A second SIGTERM does not end the process at once: a service manager stopping a schedule
  // signals its whole group, and the schedule passes the stop on to its run too, which must not
  // kill the run mid-step. SIGHUP stops a command as SIGTERM does: Node's default would end it
  // mid-step, with no word, leaving a schedule's run behind it.
  const handlers = [
    ["SIGINT", onInt],
    ["SIGTERM", stopBy(EXIT_SIGTERM, "SIGTERM")],
    ["SIGHUP", stopBy(EXIT_SIGHUP, "SIGHUP")],
  ] as const;
  if (listen) for (const [name, handler] of handlers) process.on(name, handler);
  const unwatch = listen
    ? watchScheduleGone(() => {
        onScheduleGone();
        stopBy(EXIT_SIGTERM, "SIGTERM")();
      })
    : undefined;
  return {
    signalled: () => signalled,
    release: () => {
      if (listen) for (const [name, handler] of handlers) process.off(name, handler);
      unwatch?.();
    },
  };
}
