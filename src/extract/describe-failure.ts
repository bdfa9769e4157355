/**
 * Turns whatever stopped an extract into one line for the user and the kind of failure: the input
 * was wrong (the key, a URL that is not a portal), the portal failed, or the database did.
 */
import { ApiError, AuthError, EnvelopeError, RetryBudgetError } from "../api/errors.js";
import { InexactListError } from "../api/inexact-list-error.js";
import { isRedirect } from "../api/redirect.js";
import { type FailureCode, LmsExportError } from "../errors/lms-export-error.js";
import { looksLikeFullDisk } from "../load/disk-space.js";
import { duckdbFirstLine, memoryHint } from "../load/duckdb-message.js";

export interface FailureDescription {
  readonly message: string;
  readonly code: FailureCode;
}

export function describeFailure(error: unknown, interrupted: boolean): FailureDescription {
  if (interrupted) return { message: "extract interrupted", code: "interrupted" };
  if (error instanceof AuthError) return { message: error.message, code: "auth-refused" };
  // No token operation at that address (404, or a page that is not JSON): the URL is wrong.
  const last = error instanceof RetryBudgetError ? error.cause : error;
  const notPortal =
    last instanceof ApiError &&
    last.operation === "authenticate" &&
    (last.httpStatus === 404 || (last instanceof EnvelopeError && last.problem === "not_json"));
  // A redirect (never followed) says the base URL is not the portal's address.
  const redirected =
    last instanceof ApiError && last.httpStatus !== undefined && isRedirect(last.httpStatus);
  if ((notPortal || redirected) && error instanceof Error) {
    return { message: `extract failed: ${error.message}`, code: "bad-input" };
  }
  if (error instanceof LmsExportError) return { message: error.message, code: error.code };
  if (error instanceof InexactListError || error instanceof ApiError)
    return { message: `extract failed: ${error.message}`, code: "portal-failed" };
  // Anything else is DuckDB's (or a bug's) message: its first line, and what to do about memory.
  const text = error instanceof Error ? error.message : String(error);
  const memory = memoryHint(text);
  return {
    message: `extract failed: ${duckdbFirstLine(text)}${memory}`,
    code: memory ? "out-of-memory" : looksLikeFullDisk(text) ? "disk-full" : "storage-failed",
  };
}
