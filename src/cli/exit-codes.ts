/**
 * The one place that turns a failure into the line printed and the exit code: 2 when the input
 * was wrong (fixing it helps), 1 when the run failed (nothing was lost), 129/130/143 when a signal
 * stopped it, as shells report a program the signal killed.
 *
 * Anything thrown that is not an LmsExportError is a bug or an unexpected failure: "unexpected
 * error", exit code 1.
 */
import { errorText } from "../errors/error-text.js";
import { type FailureCode, LmsExportError } from "../errors/lms-export-error.js";

export const EXIT_OK = 0;
/** The run failed; nothing was lost. */
export const EXIT_FAILED = 1;
/** Bad usage or bad input. */
export const EXIT_USAGE = 2;
/** Stopped by Ctrl-C (SIGINT): 128 + 2. */
export const EXIT_SIGINT = 130;
/** Stopped by SIGHUP (its terminal closed, a session ended): 128 + 1. */
export const EXIT_SIGHUP = 129;
/** Stopped by SIGTERM: 128 + 15. */
export const EXIT_SIGTERM = 143;

export type ExitCode =
  | typeof EXIT_OK
  | typeof EXIT_FAILED
  | typeof EXIT_USAGE
  | typeof EXIT_SIGHUP
  | typeof EXIT_SIGINT
  | typeof EXIT_SIGTERM;

/** Every failure code's exit code; a code without one does not compile. */
export const EXIT_CODES: Readonly<Record<FailureCode, ExitCode>> = {
  "bad-input": EXIT_USAGE,
  "not-found": EXIT_USAGE,
  "auth-refused": EXIT_USAGE,
  refused: EXIT_FAILED,
  locked: EXIT_FAILED,
  "portal-failed": EXIT_FAILED,
  "storage-failed": EXIT_FAILED,
  "disk-full": EXIT_FAILED,
  "out-of-memory": EXIT_FAILED,
  "query-failed": EXIT_FAILED,
  "publish-failed": EXIT_FAILED,
  "mail-failed": EXIT_FAILED,
  // main() answers 129 or 143 instead when SIGHUP or SIGTERM was the signal.
  interrupted: EXIT_SIGINT,
  failed: EXIT_FAILED,
};

/** The exit code of whatever ended a command with an error. */
export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof LmsExportError ? EXIT_CODES[error.code] : EXIT_FAILED;
}

/** The line printed on stderr for whatever ended a command with an error. */
export function failureLine(error: unknown): string {
  if (error instanceof LmsExportError) return `lms-export: ${error.message}`;
  const message = errorText(error);
  return `lms-export: unexpected error: ${message}`;
}
