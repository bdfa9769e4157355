/**
 * The typed failure of every stage below the command line (configuration, database, extract,
 * reports, publishing, mail). `code` says what kind of failure it is, for programs and for the
 * command line, which alone decides the exit code (src/cli/exit-codes.ts). `message` is one line
 * for people: what was wrong and what to do, never the API key or a password.
 *
 * The API client has its own codes (ApiError in src/api/errors.ts); the extract turns its
 * failures into these.
 */

/**
 * What kind of failure:
 * - `bad-input`: a flag, setting, file or query is wrong; fixing it and running again helps;
 * - `not-found`: something named does not exist (a database, a report, a file, a portal);
 * - `auth-refused`: the portal refused the API key;
 * - `refused`: a change was not made, as it looked like a mistake or was not confirmed (the
 *   message names what accepts it);
 * - `locked`: another process holds the database or the lake; waiting helps;
 * - `portal-failed`: the portal did not answer as it should, or not at all;
 * - `storage-failed`: the database or the file system failed to open, read or write;
 * - `disk-full`: no space left where the database or the files are written;
 * - `out-of-memory`: DuckDB ran out of its memory ceiling;
 * - `query-failed`: a valid query failed while it ran;
 * - `publish-failed`: the publish target (a lake folder, a PostgreSQL server) failed;
 * - `mail-failed`: mail could not be sent;
 * - `interrupted`: stopped by a signal or an abort before it finished;
 * - `failed`: a command failed as a whole (some portals, checks or rows of several).
 */
export const FAILURE_CODES = [
  "bad-input",
  "not-found",
  "auth-refused",
  "refused",
  "locked",
  "portal-failed",
  "storage-failed",
  "disk-full",
  "out-of-memory",
  "query-failed",
  "publish-failed",
  "mail-failed",
  "interrupted",
  "failed",
] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];

export class LmsExportError extends Error {
  override name = "LmsExportError";
  readonly code: FailureCode;

  constructor(code: FailureCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Whether `error` is a command stopped by its signal (Ctrl-C, SIGTERM), not a failure. */
export function isInterruption(error: unknown): boolean {
  return error instanceof LmsExportError && error.code === "interrupted";
}
