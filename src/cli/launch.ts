/**
 * What the launcher (bin/lms-export.js) does: catch signals, load the command line, and run
 * main(), which takes the signals over. Here rather than in the launcher so that the hand-over
 * (see starting-signals.ts) is the one the tests run. Light, like starting-signals.ts: main.js
 * and DuckDB come only through `load`.
 */
import type { CliContext } from "./context.js";
import type { ExitCode } from "./exit-codes.js";
import { catchSignalsWhileStarting } from "./starting-signals.js";

/** main()'s shape as the launcher calls it (see main.ts). */
export type Main = (
  argv: readonly string[],
  given?: CliContext,
  releaseStartingSignals?: () => void,
) => Promise<ExitCode>;

/** Runs the command line `argv` with the main() `load` answers; answers its exit code. */
export async function launch(
  argv: readonly string[],
  load: () => Promise<{ main: Main }>,
): Promise<ExitCode> {
  const release = catchSignalsWhileStarting();
  const { main } = await load();
  // main() lets go of the early handlers once its own are in place: a signal still on its way
  // when loading ends then reaches main()'s, and stops the command.
  return main(argv, undefined, release);
}
