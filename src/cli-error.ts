/**
 * The one error type the command line turns into a message and an exit code.
 *
 * Anything thrown that is not a CliError is a bug or an unexpected failure; the CLI prints it as
 * "unexpected error" with exit code 1. Messages are one line, say what was wrong and what to do,
 * and never contain the API key or token.
 */
export const EXIT_OK = 0;
/** The run failed; nothing was lost. */
export const EXIT_FAILED = 1;
/** Bad usage or bad input. */
export const EXIT_USAGE = 2;

/** Stopped by Ctrl-C (SIGINT): 128 + 2, as shells report it. */
export const EXIT_SIGINT = 130;
/** Stopped by SIGTERM: 128 + 15. */
export const EXIT_SIGTERM = 143;

export type ExitCode =
  | typeof EXIT_OK
  | typeof EXIT_FAILED
  | typeof EXIT_USAGE
  | typeof EXIT_SIGINT
  | typeof EXIT_SIGTERM;

export class CliError extends Error {
  override readonly name = "CliError";
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode = EXIT_FAILED, options?: { cause?: unknown }) {
    super(message, options);
    this.exitCode = exitCode;
  }
}

/** Bad usage or bad input: exit code 2. */
export class UsageError extends CliError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, EXIT_USAGE, options);
  }
}
