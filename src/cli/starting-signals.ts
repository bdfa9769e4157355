/**
 * Ctrl-C, SIGTERM or SIGHUP while the command line is still loading (its modules and DuckDB's library
 * take a second or two on a busy machine): main() has not installed its handlers yet, and Node's
 * default would end the process by the signal without a word. Until main() takes over, such a
 * signal ends it as main() would for a command stopped before it did anything: one line, and
 * 129, 130 or 143. Nothing has been read or written by then, so there is nothing to finish.
 *
 * Imported by the launcher (bin/lms-export.js, through launch.ts) before main.js, so it must stay
 * light: it loads nothing of DuckDB's.
 */
import { EXIT_SIGHUP, EXIT_SIGINT, EXIT_SIGTERM } from "./exit-codes.js";

/**
 * Catches SIGINT, SIGTERM and SIGHUP until the answered function is called. Contract: the caller
 * calls it only once its own handlers are in place (main() does, before its first await). Node
 * stops listening for a signal when its last handler goes, and a signal it has received but not
 * yet handed to a handler (one that came while the last modules loaded) is then dropped: letting
 * go first would leave the command to run to its end as if nothing had been asked.
 */
export function catchSignalsWhileStarting(): () => void {
  const stop = (code: number) => () => {
    process.stderr.write("lms-export: interrupted while starting; nothing was read or written\n");
    process.exit(code);
  };
  const onInt = stop(EXIT_SIGINT);
  const onTerm = stop(EXIT_SIGTERM);
  const onHup = stop(EXIT_SIGHUP);
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  process.on("SIGHUP", onHup);
  return () => {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
    process.off("SIGHUP", onHup);
  };
}
