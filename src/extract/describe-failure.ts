/**
 * Turns whatever stopped an extract into one line for the user and an exit code: 2 when the input
 * was wrong (the key, a URL that is not a portal), 1 when the run failed.
 */
import { ApiError, AuthError, EnvelopeError, RetryBudgetError } from "../api/errors.js";
import { InexactListError } from "../api/inexact-list-error.js";
import { CliError, EXIT_FAILED, EXIT_USAGE, type ExitCode } from "../cli-error.js";
import { duckdbFirstLine, memoryHint } from "../load/duckdb-message.js";

export interface FailureDescription {
  readonly message: string;
  readonly exitCode: ExitCode;
}

export function describeFailure(error: unknown, interrupted: boolean): FailureDescription {
  if (interrupted) return { message: "extract interrupted", exitCode: EXIT_FAILED };
  if (error instanceof AuthError) return { message: error.message, exitCode: EXIT_USAGE };
  // No token operation at that address (404, or a page that is not JSON): the URL is wrong.
  const last = error instanceof RetryBudgetError ? error.cause : error;
  const notPortal =
    last instanceof ApiError &&
    last.operation === "authenticate" &&
    (last.httpStatus === 404 || (last instanceof EnvelopeError && last.problem === "not_json"));
  if (notPortal && error instanceof Error) {
    return { message: `extract failed: ${error.message}`, exitCode: EXIT_USAGE };
  }
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof InexactListError)
    return { message: `extract failed: ${error.message}`, exitCode: EXIT_FAILED };
  if (error instanceof ApiError)
    return { message: `extract failed: ${error.message}`, exitCode: EXIT_FAILED };
  // Anything else is DuckDB's (or a bug's) message: its first line, and what to do about memory.
  const text = error instanceof Error ? error.message : String(error);
  return {
    message: `extract failed: ${duckdbFirstLine(text)}${memoryHint(text)}`,
    exitCode: EXIT_FAILED,
  };
}
