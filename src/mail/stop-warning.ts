/**
 * What the mailing says when its stop signal comes while a message is being delivered: it waits
 * for the server's answer (a slow server can take minutes), and whoever is waiting should know
 * what stops it sooner, which depends on the signal received (src/cli/stop-signals.ts): a second
 * Ctrl-C ends the process at once; a second SIGTERM (or SIGHUP) does not, since a service manager
 * stopping a schedule signals its whole group, so only SIGKILL does, leaving the mailing journal
 * (mailing-journal.ts) for the same command to resume from.
 */
import { stopSignalOf } from "../errors/stop-signal.js";

const WAITING = "mail: stopping once the server has answered the message being delivered";

/**
 * The warning for a mailing stopped while messages under way had not been asked for by the
 * server (a connection still awaiting its greeting, a recipient not yet answered): they are given
 * up at once, as nothing of them can have been delivered.
 */
export const NOT_STARTED_WARNING =
  "mail: stopping now; nothing was sent of a message under way that the server had not asked for yet: it is left for the command that sends again";

/** The warning for a mailing stopped by `signal`'s abort while a message is under way. */
export function stopWarningText(signal: AbortSignal | undefined): string {
  switch (stopSignalOf(signal)) {
    case "SIGINT":
      return `${WAITING}; Ctrl-C again stops at once`;
    case "SIGTERM":
      return `${WAITING}; ${LATER_SIGNALS("another SIGTERM")}`;
    case "SIGHUP":
      return `${WAITING}; ${LATER_SIGNALS("another SIGHUP or a SIGTERM")}`;
    default:
      // Stopped by its caller, not by a signal of this process: nothing more stops it sooner.
      return WAITING;
  }
}

const LATER_SIGNALS = (which: string) =>
  `${which} does not stop it sooner, SIGKILL does (the same command run again then sends only what this run did not)`;
